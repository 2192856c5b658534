#include "app/run/partition_threads.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "engine/time/wall_clock.h"

namespace isochron::run {

PartitionThreads::PartitionThreads(const GraphSpec& file, const ValidatedGraph& graph, const SchedulerSpec& scheduler, int channelCapacity,
                                   const StopPoll& stop)
    : graph_(graph), channels_(channelCapacity) {
    const std::vector<int> partitions = distributed::nodePartitions(file, graph);
    const int count = *std::max_element(partitions.begin(), partitions.end()) + 1;
    std::vector<GraphError> errors = distributed::checkPartitions(graph, partitions, count);
    if (!errors.empty()) throw GraphException(std::move(errors));
    // Only the partitions that hold nodes run: a partition number is a label here, not a thread count
    // (one "partition": 1000 must not start a thousand engines).
    partitionNumbers_ = partitions;
    std::sort(partitionNumbers_.begin(), partitionNumbers_.end());
    partitionNumbers_.erase(std::unique(partitionNumbers_.begin(), partitionNumbers_.end()), partitionNumbers_.end());
    for (const int partition : partitionNumbers_) {
        parts_.push_back(distributed::localPart(
            graph, partitions, partition, [&](const distributed::ChannelSpec& c) { return channels_.sender(c); },
            [&](const distributed::ChannelSpec& c) { return channels_.receiver(c); }));
    }
    // One after the other on this thread (FFTW's planner and the plugins' loaders expect no company),
    // collecting the nodes that cannot start in every partition before giving up.
    for (std::size_t k = 0; k < parts_.size(); ++k) {
        try {
            engines_.push_back(std::make_unique<Engine>(parts_[k].graph, scheduler, stop));
            channels_.attachEngine(partitionNumbers_[k], *engines_.back());
            distributed::markChannelReceivers(parts_[k], *engines_.back());
        } catch (const GraphException& e) {
            errors.insert(errors.end(), e.errors().begin(), e.errors().end());
        }
    }
    if (!errors.empty()) throw GraphException(std::move(errors));
    distributed::shareWhetherSourcesFollowWallClock(engines_);
}

PartitionThreads::~PartitionThreads() = default;

std::vector<const NodeContext*> PartitionThreads::nodes() const {
    std::vector<const NodeContext*> all;
    for (const auto& engine : engines_) all.insert(all.end(), engine->nodes().begin(), engine->nodes().end());
    return all;
}

void PartitionThreads::stopAll() {
    for (const auto& engine : engines_) engine->requestStop();
    channels_.stop();
}

void PartitionThreads::setFailureListener(const std::function<void(const std::string& failure)>& listener) {
    for (const auto& engine : engines_) engine->setFailureListener(listener);
}

void PartitionThreads::requestStop() {
    stopRequested_.store(true);
    stopAll();
}

RunOutcome PartitionThreads::run() {
    const TimeNs started = wallClockNs();
    outcomes_.assign(engines_.size(), RunOutcome{});
    std::mutex mutex;
    std::condition_variable ended;
    std::size_t running = 0;
    std::vector<std::thread> threads;
    threads.reserve(engines_.size());
    const auto runPartition = [&](std::size_t k) {
        RunOutcome outcome;
        try {
            outcome = engines_[k]->run();
        } catch (const std::exception& e) {
            outcome.failures.push_back("partition " + std::to_string(partitionNumbers_[k]) + ": " + e.what());
        }
        // A partition that did not complete leaves its channels unread or unfed: end the others. A
        // node that failed does not: its outputs ended, and the receivers it fed freed their senders.
        if (!outcome.completed) stopAll();
        outcomes_[k] = std::move(outcome);
        std::lock_guard lock(mutex);
        --running;
        ended.notify_all();
    };
    for (std::size_t k = 0; k < engines_.size(); ++k) {
        {
            std::lock_guard lock(mutex);
            ++running;
        }
        try {
            threads.emplace_back(runPartition, k);
        } catch (const std::system_error& e) {
            // Out of threads or memory: the partitions already running wait on this one's channels,
            // so stop them and wait for them before saying so (a joinable thread must not be destroyed).
            stopAll();
            for (std::thread& thread : threads) thread.join();
            throw std::runtime_error("cannot start a thread for partition " + std::to_string(partitionNumbers_[k]) + " (" +
                                     std::to_string(k + 1) + " of " + std::to_string(engines_.size()) + "): " + e.what());
        }
    }
    {
        std::unique_lock lock(mutex);
        ended.wait(lock, [&] { return running == 0; });
    }
    for (std::thread& thread : threads) thread.join();
    RunOutcome whole;
    whole.completed = true;
    for (const RunOutcome& outcome : outcomes_) {
        whole.completed = whole.completed && outcome.completed;
        whole.failures.insert(whole.failures.end(), outcome.failures.begin(), outcome.failures.end());
    }
    // The engines another partition's end stopped say "stopped"; the run was stopped only when asked to be.
    whole.stopped = stopRequested_.load();
    whole.wallSeconds = static_cast<double>(wallClockNs() - started) / 1e9;
    return whole;
}

RunSummary PartitionThreads::summary(const RunOutcome& outcome) const {
    std::map<std::string, NodeSummary, std::less<>> nodes;
    std::map<std::string, OutputSummary, std::less<>> outputs;
    for (std::size_t k = 0; k < engines_.size(); ++k) {
        RunSummary part = summarizeRun(*engines_[k], outcomes_[k]);
        for (NodeSummary& node : part.nodes) nodes.emplace(node.node, std::move(node));
        for (OutputSummary& output : part.outputs) outputs.emplace(output.node, std::move(output));
    }
    RunSummary whole;
    whole.scheduler = std::string(engines_.front()->scheduler().name());
    whole.outcome = outcome;
    const double seconds = outcome.wallSeconds > 0 ? outcome.wallSeconds : 1e-9;
    for (const ValidatedNode& node : graph_.nodes) {
        if (auto found = nodes.find(node.id); found != nodes.end()) whole.nodes.push_back(std::move(found->second));
        if (auto found = outputs.find(node.id); found != outputs.end()) {
            OutputSummary& output = found->second;
            output.samplesPerSecond = static_cast<double>(output.samples) / seconds;
            output.itemsPerSecond = static_cast<double>(output.items) / seconds;
            whole.outputs.push_back(std::move(output));
        }
    }
    return whole;
}

}  // namespace isochron::run
