#include "engine/telemetry/telemetry_collector.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <string_view>
#include <thread>

#include "engine/memory/memory_pool.h"
#include "engine/time/wall_clock.h"

namespace isochron {
namespace {

constexpr double kSmoothing = 0.3;  // weight of the newest measurement in the running estimates

/// The sum of one counter (`count`, a member of the port state) over `ports`.
template <typename Ports, typename Count>
std::uint64_t total(const Ports& ports, Count count) {
    std::uint64_t sum = 0;
    for (const auto& port : ports) sum += port.*count;
    return sum;
}

std::uint64_t itemsIn(const NodeContext& node) { return total(node.inputs, &InputState::items); }
std::uint64_t itemsOut(const NodeContext& node) { return total(node.outputs, &OutputState::items); }
std::uint64_t samplesIn(const NodeContext& node) { return total(node.inputs, &InputState::samples); }
std::uint64_t samplesOut(const NodeContext& node) { return total(node.outputs, &OutputState::samples); }

}  // namespace

TelemetryCollector::TelemetryCollector(const std::vector<NodeContext*>& nodes)
    : nodes_(nodes), history_(nodes.size()), outputHistory_(nodes.size()), earlierOutputHistory_(nodes.size()) {
    routes_.reserve(nodes.size());
    for (const NodeContext* node : nodes) routes_.push_back(dynamic_cast<const RoutedItems*>(node->op.get()));
}

TelemetryCollector::~TelemetryCollector() = default;

std::shared_ptr<SnapshotChannel> TelemetryCollector::open() {
    channels_.push_back(std::make_shared<SnapshotChannel>());
    return channels_.back();
}

void TelemetryCollector::setRate(double hz) {
    hz = std::clamp(hz, 1.0, 1000.0);
    periodNs_ = static_cast<TimeNs>(1e9 / hz);
    rounds_.setPeriod(periodNs_);
    admissions_.setPeriod(periodNs_);
}

void TelemetryCollector::tick(TimeNs now, TimeNs runStartNs, const char* state) {
    if (now < nextNs_) return;
    publish(now, runStartNs, state);
}

void TelemetryCollector::refreshEstimates() {
    std::int64_t timedNs = 0;
    std::uint64_t timedCalls = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        NodeContext& node = *nodes_[i];
        History& last = history_[i];
        const std::uint64_t in = itemsIn(node);
        const std::uint64_t out = itemsOut(node);
        timedNs += node.timedNs - last.timedNs;
        timedCalls += node.timedCalls - last.timedCalls;
        if (node.timedCalls > last.timedCalls) {
            const double cost = static_cast<double>(node.timedNs - last.timedNs) / static_cast<double>(node.timedCalls - last.timedCalls);
            node.costEstimateNs = node.costEstimateNs == 0 ? cost : (1 - kSmoothing) * node.costEstimateNs + kSmoothing * cost;
        }
        if (in > last.itemsIn) {
            const double selectivity = static_cast<double>(out - last.itemsOut) / static_cast<double>(in - last.itemsIn);
            node.selectivityEstimate = (1 - kSmoothing) * node.selectivityEstimate + kSmoothing * selectivity;
        }
        last.itemsIn = in;
        last.itemsOut = out;
        last.timedNs = node.timedNs;
        last.timedCalls = node.timedCalls;
    }
    if (timedCalls > 0) adaptSamplePeriod(static_cast<double>(timedNs) / static_cast<double>(timedCalls));
}

void TelemetryCollector::adaptSamplePeriod(double meanCostNs) {
    // A timed invocation costs two clock reads (~10-20 ns each): time one in `period` such that
    // they add about 1% to invocations of the measured mean cost.
    constexpr double kBudgetNs = 3000;
    const double wanted = kBudgetNs / std::max(meanCostNs, 1.0);
    const auto period = static_cast<std::uint32_t>(std::clamp(wanted, double{CostClock::kMinPeriod}, double{CostClock::kMaxPeriod}));
    for (NodeContext* node : nodes_) node->costClock->period = std::bit_ceil(period);
}

void TelemetryCollector::scheduleAfter(TimeNs now, TimeNs runStartNs) {
    // Deadlines stay on the run's grid of periods: a snapshot taken late (the clock is read between
    // turns, the engine may be asleep) does not push the later ones back, which gave a period of
    // the asked one plus the lateness (24 snapshots a second at 30 Hz). Deadlines already missed
    // are skipped, not made up in a burst.
    const TimeNs origin = runStartNs != 0 && runStartNs <= now ? runStartNs : now;
    nextNs_ = origin + ((now - origin) / periodNs_ + 1) * periodNs_;
}

void TelemetryCollector::publish(TimeNs now, TimeNs runStartNs, const char* state) {
    scheduleAfter(now, runStartNs);
    refreshEstimates();
    if (!hasReaders()) return;
    const bool final = std::string_view(state) != "running";
    if (post(now, runStartNs, state, final)) return;
    // At the end of a run spread over ranks, the other ranks may still be running: keep publishing
    // what they report until they have ended too. This rank's own figures stay those of its end: its
    // nodes did nothing more, and their rates over the wait would read 0 as if it had stalled.
    do {
        std::this_thread::sleep_for(std::chrono::nanoseconds(std::max<TimeNs>(nextNs_ - wallClockNs(), 0)));
        now = wallClockNs();
        scheduleAfter(now, runStartNs);
    } while (!postAgain(now, runStartNs));
}

bool TelemetryCollector::postAgain(TimeNs now, TimeNs runStartNs) {
    latest_ = ownEnd_;
    latest_.sequence = ++sequence_;
    latest_.wallNs = now;
    latest_.elapsedSeconds = static_cast<double>(now - runStartNs) / 1e9;
    const bool complete = relay_->exchange(latest_, true);
    deliver(complete);
    return complete;
}

bool TelemetryCollector::deliver(bool last) {
    bool taken = false;
    for (auto& channel : channels_) {
        TelemetrySnapshot* snapshot = last ? channel->beginLastWrite() : channel->beginWrite();
        if (!snapshot) continue;
        *snapshot = latest_;
        channel->endWrite(snapshot);
        taken = true;
    }
    return taken;
}

bool TelemetryCollector::claimPeriod(TimeNs now, TimeNs runStartNs, bool final) {
    if (final || runStartNs == 0 || now < runStartNs) return true;
    const std::int64_t period = (now - runStartNs) / periodNs_;
    std::int64_t posted = postedPeriod_.load(std::memory_order_relaxed);
    while (posted < period) {
        if (postedPeriod_.compare_exchange_weak(posted, period, std::memory_order_relaxed)) return true;
    }
    return false;
}

bool TelemetryCollector::post(TimeNs now, TimeNs runStartNs, const char* state, bool final) {
    // The watcher posted this period's snapshot, or is posting one now: this one is skipped, never waited for.
    if (!claimPeriod(now, runStartNs, final)) return true;
    const std::unique_lock lock(postMutex_, std::try_to_lock);
    if (!lock.owns_lock()) return true;
    // Rates over the time since the previous snapshot; at the end, when that is less than a period,
    // since the one before it (between one and two periods).
    const bool shortLast = final && earlierSnapshotNs_ != 0 && now - lastSnapshotNs_ < periodNs_;
    const TimeNs rateSinceNs = shortLast ? earlierSnapshotNs_ : lastSnapshotNs_;
    const std::vector<History>& rateBase = shortLast ? earlierOutputHistory_ : outputHistory_;
    const double seconds = rateSinceNs ? static_cast<double>(now - rateSinceNs) / 1e9 : 0.0;
    ++sequence_;
    fill(latest_, now, runStartNs, state, seconds, rateBase);
    bool complete = true;
    if (relay_) {
        if (final) ownEnd_ = latest_;  // before the relay adds the other ranks' figures
        complete = relay_->exchange(latest_, final);
    }
    const bool taken = deliver(final && complete);
    if (!taken && !relay_) return complete;
    if (!shortLast) {
        earlierSnapshotNs_ = lastSnapshotNs_;
        std::swap(earlierOutputHistory_, outputHistory_);
    }
    lastSnapshotNs_ = now;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        outputHistory_[i].itemsIn = itemsIn(*nodes_[i]);
        outputHistory_[i].samplesIn = samplesIn(*nodes_[i]);
    }
    return complete;
}

void TelemetryCollector::startWatch(TimeNs runStartNs) {
    if (relay_ || channels_.empty()) return;
    watcher_ = std::make_unique<TelemetryWatcher>(*this, nodes_, runStartNs, periodNs_);
}

void TelemetryCollector::postLate(std::int64_t period, TimeNs now, int busyNode, double busySeconds) {
    std::int64_t posted = postedPeriod_.load(std::memory_order_relaxed);
    do {
        if (posted >= period) return;
    } while (!postedPeriod_.compare_exchange_weak(posted, period, std::memory_order_relaxed));
    const std::lock_guard lock(postMutex_);
    TelemetrySnapshot& s = latest_;
    if (s.sequence == 0 || s.nodes.size() < nodes_.size()) return;  // the engine thread has not posted its first
    // The engine thread claimed and posted a later period while this thread waited for the lock: this one would go back in time.
    if (postedPeriod_.load(std::memory_order_relaxed) != period || now <= s.wallNs) return;
    // Only what the engine thread publishes as it goes is read here; the rest is as it last posted it.
    const double seconds = static_cast<double>(now - s.wallNs) / 1e9;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const NodeContext& node = *nodes_[i];
        NodeTelemetry& t = s.nodes[i];
        t.calls = pluginHookCalls(node.callCount(), routes_[i]);
        t.itemsIn = itemsIn(node);
        t.itemsOut = itemsOut(node);
        t.samplesIn = samplesIn(node);
        t.samplesOut = samplesOut(node);
    }
    for (OutputTelemetry& o : s.outputs) {
        const NodeTelemetry& t = s.nodes[static_cast<std::size_t>(o.node)];
        if (seconds > 0) {
            o.itemsPerSecond = static_cast<double>(t.itemsIn - o.items) / seconds;
            o.samplesPerSecond = static_cast<double>(t.samplesIn - o.samples) / seconds;
        }
        o.items = t.itemsIn;
        o.samples = t.samplesIn;
    }
    s.sequence = ++sequence_;
    s.elapsedSeconds += seconds;
    s.wallNs = now;
    s.busyNode = busyNode;
    s.busySeconds = busySeconds;
    deliver();
}

void TelemetryCollector::fill(TelemetrySnapshot& s, TimeNs now, TimeNs runStartNs, const char* state, double seconds,
                              const std::vector<History>& rateBase) {
    s.sequence = sequence_;
    s.wallNs = now;
    s.elapsedSeconds = runStartNs ? static_cast<double>(now - runStartNs) / 1e9 : 0.0;
    s.engineState = state;
    s.busyNode = -1;  // between calls: the engine thread fills its snapshots only there
    s.busySeconds = 0;
    const MemoryStats memory = MemoryPool::instance().stats();
    s.liveBytes = memory.liveBytes;
    s.liveAllocations = memory.liveAllocations;
    s.cachedBytes = memory.cachedBytes;
    s.nodes.resize(nodes_.size());
    s.outputs.clear();
    s.queues.clear();
    s.ranks.clear();
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const NodeContext& node = *nodes_[i];
        NodeTelemetry& t = s.nodes[i];
        t.calls = pluginHookCalls(node.callCount(), routes_[i]);
        t.itemsIn = itemsIn(node);
        t.itemsOut = itemsOut(node);
        t.samplesIn = samplesIn(node);
        t.samplesOut = samplesOut(node);
        t.costNsPerItem = node.costEstimateNs;
        t.selectivity = t.itemsIn ? node.selectivityEstimate : 0.0;
        t.queuedItems = node.queuedItems();
        t.queuedBytes = 0;
        t.warnings = node.warningCount;
        t.failed = node.failed;
        // Copied into the reused snapshot string: allocates only once a node has failed.
        if (node.failed) {
            t.failure = node.failure;
            if (node.descriptor->origin != "built-in") t.failure += " [plugin " + node.descriptor->origin + "]";
        } else {
            t.failure.clear();
        }
        t.finished = node.finished;
        t.watermarkNs = node.outputProgress;
        const HeldState held = node.op ? node.op->heldState() : HeldState{};
        t.heldItems = held.items;
        t.heldBytes = held.bytes;
        TimeNs leastProgress = kEndOfTime, mostProgress = kBeginningOfTime;
        int connectedInputs = 0;
        for (std::size_t p = 0; p < node.inputs.size(); ++p) {
            const InputState& in = node.inputs[p];
            t.queuedBytes += in.queue.queuedBytes();
            if (!in.connected) continue;
            ++connectedInputs;
            leastProgress = std::min(leastProgress, in.progress);
            mostProgress = std::max(mostProgress, in.progress);
            QueueTelemetry q;
            q.node = static_cast<int>(i);
            q.port = static_cast<int>(p);
            q.items = in.queue.size();
            q.bytes = in.queue.queuedBytes();
            const TimeNs oldest = in.queue.empty() ? 0 : in.queue.front().arrivalNs();
            q.oldestWaitMs = oldest > 0 ? static_cast<double>(now - oldest) / 1e6 : 0.0;
            q.watermarkNs = in.progress;
            q.lateItems = in.lateItems;
            s.queues.push_back(q);
        }
        // Skew is only meaningful between two inputs or more, while every input has said something and none has ended.
        const bool comparable = connectedInputs >= 2 && leastProgress > kBeginningOfTime && mostProgress < kEndOfTime;
        t.skewMs = comparable ? static_cast<double>(mostProgress - leastProgress) / 1e6 : 0.0;
        if (!node.sink) continue;
        const SinkStats& sink = *node.sink;
        OutputTelemetry o;
        o.node = static_cast<int>(i);
        o.items = t.itemsIn;
        o.samples = t.samplesIn;
        if (seconds > 0) {
            o.itemsPerSecond = static_cast<double>(o.items - rateBase[i].itemsIn) / seconds;
            o.samplesPerSecond = static_cast<double>(o.samples - rateBase[i].samplesIn) / seconds;
        }
        LatencyHistogram recent = sink.recent[0];
        recent.merge(sink.recent[1]);
        o.latencyLastMs = static_cast<double>(sink.lastLatencyNs) / 1e6;
        o.latencyP50Ms = recent.percentileNs(0.50) / 1e6;
        o.latencyP95Ms = recent.percentileNs(0.95) / 1e6;
        o.latencyP99Ms = recent.percentileNs(0.99) / 1e6;
        o.utilityNow = sink.latency.count() ? sink.qos.utility(o.latencyLastMs) : 0.0;
        o.utilityAverage = sink.latency.count() ? sink.utilitySum / static_cast<double>(sink.latency.count()) : 0.0;
        s.outputs.push_back(o);
    }
}

}  // namespace isochron
