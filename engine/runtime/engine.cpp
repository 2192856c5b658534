#include "engine/runtime/engine.h"

#include "engine/graph/strong_components.h"
#include "engine/memory/memory_pool.h"
#include "engine/runtime/node_call_scope.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

namespace isochron {

std::size_t NodeContext::queuedItems() const {
    std::size_t total = 0;
    for (const auto& in : inputs) total += in.queue.size();
    return total;
}

void NodeContext::routeToMany(OutputState& out, Item&& item) {
    const std::size_t count = out.targets.size();
    if (count == 0) return;
    for (std::size_t i = 0; i + 1 < count; ++i) {
        scheduler->deliver(*out.targets[i].node, out.targets[i].port, Item(item));
    }
    scheduler->deliver(*out.targets[count - 1].node, out.targets[count - 1].port, std::move(item));
}

void NodeContext::routeObserved(OutputState& out, Item&& item) {
    out.tap->observe(item);
    if (out.onlyTarget.node) return scheduler->deliver(*out.onlyTarget.node, out.onlyTarget.port, std::move(item));
    routeToMany(out, std::move(item));
}

namespace {

// Marks every node that lies on a directed cycle.
void markCycles(const std::vector<NodeContext*>& nodes) {
    std::vector<std::vector<int>> successors(nodes.size());
    for (std::size_t v = 0; v < nodes.size(); ++v) {
        for (const auto& output : nodes[v]->outputs) {
            for (const auto& target : output.targets) successors[v].push_back(target.node->index);
        }
    }
    const std::vector<int> cycle = cycleOfEachNode(successors);
    for (std::size_t v = 0; v < nodes.size(); ++v) nodes[v]->inCycle = cycle[v] >= 0;
}

// " [plugin /path/x.so]" for an operator that does not come with Isochron, so a fault names its origin.
std::string originNote(const NodeContext& node) {
    if (node.descriptor->origin == "built-in") return {};
    return " [plugin " + node.descriptor->origin + "]";
}

}  // namespace

Engine::Engine(const ValidatedGraph& graph, const SchedulerSpec& schedulerSpec, const StopPoll& stop) {
    StopPoller poller(stop, "starting the nodes");
    // Operators asking stopRequested() while they start see the poll; it is the caller's, alive only here.
    struct StartStopShown {
        const StopPoll*& shown;
        ~StartStopShown() { shown = nullptr; }
    } startStopShown{startStop_ = stop ? &stop : nullptr};
    // A stop asked while the nodes start: every node activated so far is deactivated, nothing runs.
    const auto abandonStart = [this] {
        for (auto& started : nodes_) {
            if (started->op) started->op->deactivate();  // does nothing for a node not activated
        }
        throw StartStopped("starting the nodes stopped: the run is being stopped");
    };
    scheduler_ = createScheduler(schedulerSpec);
    burst_ = schedulerParams(schedulerSpec).getInt("burst");
    std::vector<std::vector<std::size_t>> fanOut(graph.nodes.size());
    for (const ValidatedEdge& e : graph.edges) {
        auto& counts = fanOut[static_cast<std::size_t>(e.fromNode)];
        if (counts.size() <= static_cast<std::size_t>(e.fromPort)) counts.resize(static_cast<std::size_t>(e.fromPort) + 1);
        ++counts[static_cast<std::size_t>(e.fromPort)];
    }
    // Each node's pieces (operator, ports, targets) are allocated together and in graph order, and
    // the contexts are in graph order too, so a traversal walks memory forward and the prefetcher
    // keeps up.
    std::vector<GraphError> errors;
    nodeStorage_.reserve(graph.nodes.size());  // never reallocated: targets point into it
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        poller.unit();
        const ValidatedNode& v = graph.nodes[i];
        NodeContext* node = &nodeStorage_.emplace_back(&arena_);
        node->id = v.id;
        node->index = static_cast<int>(i);
        node->descriptor = v.descriptor;
        node->params = v.params;
        node->costClock = &costClock_;
        node->scheduler = scheduler_.get();
        node->engine = this;
        // The operator first, then its outputs and inputs: a hop reads them in that order.
        try {
            OperatorPlacement nextToItsNode(&arena_);
            const NodeCallScope creating(*node, "create");  // a stop meanwhile names it, should it not return
            node->op = node->descriptor->create();
        } catch (const std::exception& e) {
            errors.push_back({node->id, "", "", std::string("cannot start: ") + e.what() + originNote(*node)});
        } catch (...) {
            errors.push_back({node->id, "", "", "cannot start: its factory threw something that is not a std::exception" + originNote(*node)});
        }
        node->outputs.reserve(v.outputs.size());
        for (std::size_t p = 0; p < v.outputs.size(); ++p) {
            node->outputs.emplace_back(&arena_);
            node->outputs.back().port = v.outputs[p];
            if (p < fanOut[i].size()) node->outputs.back().targets.reserve(fanOut[i][p]);
        }
        node->inputs.reserve(v.inputs.size());
        for (const auto& p : v.inputs) {
            node->inputs.emplace_back();
            node->inputs.back().port = p;
        }
        if (v.outputs.empty()) node->sink = std::make_unique<SinkStats>(v.qos.value_or(QosGraph::withDeadline(kDefaultQosDeadlineMs)));
        nodes_.push_back(node);
    }
    for (const ValidatedEdge& e : graph.edges) {
        nodes_[e.fromNode]->outputs[e.fromPort].targets.push_back(Target{nodes_[e.toNode], e.toPort});
        nodes_[e.toNode]->inputs[e.toPort].connected = true;
    }
    for (NodeContext* node : nodes_) {
        for (OutputState& out : node->outputs) {
            if (out.targets.size() == 1) {
                out.onlyTarget = out.targets.front();
                out.onlyTargetOperator = out.onlyTarget.node->op.get();
            }
        }
    }
    for (auto& node : nodes_) {
        try {
            poller.unit();
        } catch (const StartStopped&) {
            abandonStart();
        }
        if (!node->op) continue;
        try {
            const NodeCallScope activating(*node, "activate");
            node->op->activate(*node);
        } catch (const std::exception& e) {
            errors.push_back({node->id, "", "", std::string("cannot start: ") + e.what() + originNote(*node)});
            node->op.reset();
        } catch (...) {
            errors.push_back({node->id, "", "", "cannot start: onActivate threw something that is not a std::exception" + originNote(*node)});
            node->op.reset();
        }
    }
    if (!errors.empty()) {
        for (auto& node : nodes_) {
            if (node->op) node->op->deactivate();
        }
        throw GraphException(std::move(errors));
    }
    markCycles(nodes_);
    predecessorStart_.assign(nodes_.size() + 1, 0);
    for (const ValidatedEdge& e : graph.edges) ++predecessorStart_[static_cast<std::size_t>(e.toNode) + 1];
    for (std::size_t v = 0; v < nodes_.size(); ++v) predecessorStart_[v + 1] += predecessorStart_[v];
    predecessors_.resize(graph.edges.size());
    std::vector<int> filled(predecessorStart_.begin(), predecessorStart_.end() - 1);
    for (const ValidatedEdge& e : graph.edges) predecessors_[static_cast<std::size_t>(filled[static_cast<std::size_t>(e.toNode)]++)] = e.fromNode;
    failureTaken_.assign(nodes_.size(), 0);
    cutOff_.assign(nodes_.size(), 0);
    standInSource_.assign(nodes_.size(), 0);
    searchStack_.reserve(nodes_.size());
    findNodesReachingOutputs(reachedOutputAtStart_);
    reachesOutput_ = reachedOutputAtStart_;
    try {
        scheduler_->prepare(nodes_);
    } catch (const std::bad_alloc&) {
        // Without this, the run ends with a bare "std::bad_alloc" and no hint of what needed it.
        throw std::runtime_error("the scheduler '" + std::string(scheduler_->name()) + "' ran out of memory preparing a graph of " +
                                 std::to_string(nodes_.size()) + " nodes and " + std::to_string(graph.edges.size()) +
                                 " edges; choose a scheduler with less set-up for this graph (df, fifo, rr, qos-bucket) or free memory");
    }
    scheduler_->setCheckpoint([this] { checkpoint(); });
    scheduler_->setStopRequest(&stop_);
    telemetry_ = std::make_unique<TelemetryCollector>(nodes_);
    // Asked once more at the end: a node's load that gave up at the stop (start_interruption.h)
    // returned as if loaded, and a run that would stop at once is not worth a summary of every node.
    if (stop && stop()) abandonStart();
}

Engine::~Engine() {
    for (auto& node : nodes_) {
        if (node->op) node->op->deactivate();
    }
}

NodeContext* Engine::findNode(std::string_view id) const {
    for (const auto& node : nodes_) {
        if (node->id == id) return node;
    }
    return nullptr;
}

std::size_t Engine::queuedItems() const {
    std::size_t total = 0;
    for (const auto& node : nodes_) total += node->queuedItems();
    return total;
}

bool Engine::anySourceFollowsWallClock() const {
    return sourcesElsewhereFollowWallClock_ ||
           std::any_of(nodes_.begin(), nodes_.end(), [](const NodeContext* node) { return node->isSource() && node->op->followsWallClock(); });
}

std::shared_ptr<SnapshotChannel> Engine::openTelemetry(double hz) {
    telemetry_->setRate(hz);
    return telemetry_->open();
}

void Engine::checkpoint() {
    applyPendingChanges();
    if (failuresPending_.load(std::memory_order_relaxed)) takeFailures();
    if (telemetryActive_) telemetry_->tick(wallClockNs(), runStartNs_, "running");
}

void Engine::requestStop() {
    stop_.store(true);
    scheduler_->refuseDirectCalls();  // the call in progress is the last: what it emits queues
    wake();
}

void Engine::wake() {
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    wakeUp_.notify_all();
}

void Engine::postParameter(const std::string& nodeId, const std::string& name, const ParamValue& value) {
    NodeContext* node = findNode(nodeId);
    if (!node) throw std::invalid_argument("no node named '" + nodeId + "'");
    const ParamSpec* spec = node->descriptor->findParam(name);
    if (!spec) throw std::invalid_argument("node '" + nodeId + "' has no parameter '" + name + "'");
    if (!spec->live) {
        throw std::invalid_argument("node '" + nodeId + "', parameter '" + name + "' cannot change while running");
    }
    std::string why;
    auto checked = spec->validate(value, why);
    if (!checked) throw std::invalid_argument("node '" + nodeId + "', parameter '" + name + "': " + why);
    {
        std::lock_guard lock(mutex_);
        pending_.push_back({node, name, *checked});
        changesPending_.store(true, std::memory_order_release);
    }
    wake();
}

void Engine::setTap(const std::string& nodeId, const std::string& port, std::shared_ptr<WireTap> tap) {
    NodeContext* node = findNode(nodeId);
    if (!node) throw std::invalid_argument("no node named '" + nodeId + "'");
    auto output = std::find_if(node->outputs.begin(), node->outputs.end(), [&](const OutputState& o) { return o.port.name == port; });
    if (output == node->outputs.end()) throw std::invalid_argument("node '" + nodeId + "' has no output '" + port + "'");
    {
        std::lock_guard lock(mutex_);
        pendingTaps_.push_back({&*output, std::move(tap)});
        changesPending_.store(true, std::memory_order_release);
    }
    wake();
}

void Engine::applyPendingChanges() {
    if (!changesPending_.load(std::memory_order_acquire)) return;
    std::vector<PendingParameter> batch;
    std::vector<PendingTap> taps;
    {
        std::lock_guard lock(mutex_);
        batch.swap(pending_);
        taps.swap(pendingTaps_);
        changesPending_.store(false, std::memory_order_relaxed);
    }
    for (auto& p : batch) {
        if (!p.node->failed) p.node->op->applyParameter(p.name, p.value);
    }
    for (auto& t : taps) {
        t.output->tap = t.tap.get();
        std::erase_if(taps_, [&](const auto& owned) { return owned.first == t.output; });
        if (t.tap) taps_.emplace_back(t.output, std::move(t.tap));
    }
}

void Engine::nodeFailed(const NodeContext& node) {
    std::lock_guard lock(failureMutex_);
    newFailures_.push_back(&node);
    failuresPending_.store(true, std::memory_order_release);
}

void Engine::findNodesReachingOutputs(std::vector<char>& reaches) {
    // Backwards from every sink that works, never through a failed node: an explicit stack, so
    // a chain of any length needs no deeper call stack.
    reaches.assign(nodes_.size(), 0);
    searchStack_.clear();
    for (const NodeContext* node : nodes_) {
        const auto v = static_cast<std::size_t>(node->index);
        if (node->isSink() && !failureTaken_[v]) {
            reaches[v] = 1;
            searchStack_.push_back(node->index);
        }
    }
    while (!searchStack_.empty()) {
        const auto v = static_cast<std::size_t>(searchStack_.back());
        searchStack_.pop_back();
        for (int p = predecessorStart_[v]; p < predecessorStart_[v + 1]; ++p) {
            const auto u = static_cast<std::size_t>(predecessors_[static_cast<std::size_t>(p)]);
            if (reaches[u] || failureTaken_[u]) continue;
            reaches[u] = 1;
            searchStack_.push_back(static_cast<int>(u));
        }
    }
}

void Engine::takeFailures() {
    std::vector<const NodeContext*> failures;
    {
        std::lock_guard lock(failureMutex_);
        failures.swap(newFailures_);
        failuresPending_.store(false, std::memory_order_relaxed);
    }
    // A node that already reached no working output changes nothing for the others.
    bool reachabilityChanged = false;
    for (const NodeContext* node : failures) {
        const auto v = static_cast<std::size_t>(node->index);
        if (failureTaken_[v]) continue;
        failureTaken_[v] = 1;
        reachabilityChanged = reachabilityChanged || reachesOutput_[v];
        // A channel sender whose receiver is gone comes here too (it retires, not failed): not announced.
        if (failureListener_ && node->failed) failureListener_("node '" + node->id + "': " + node->failure + originNote(*node));
    }
    if (!reachabilityChanged) return;
    findNodesReachingOutputs(reachesOutput_);
    for (const NodeContext* node : nodes_) {
        const auto v = static_cast<std::size_t>(node->index);
        if (node->isSource() && reachedOutputAtStart_[v] && !reachesOutput_[v] && !failureTaken_[v] && !cutOff_[v]) {
            cutOff_[v] = 1;
            cutOffPending_ = true;
        }
    }
}

void Engine::stopCutOffSources(std::vector<NodeContext*>& active) {
    cutOffPending_ = false;
    for (NodeContext* source : active) {
        if (!cutOff_[static_cast<std::size_t>(source->index)] || source->finished || source->failed) continue;
        if (!standInSource_[static_cast<std::size_t>(source->index)]) {
            ++source->warningCount;
            source->warnings.push_back("stopped early: every path from it ends at a failed node, so its items could reach no output");
            cutOffSources_.push_back(source->id);
        }
        // Its end reaches the nodes below it, which then finish as after a normal end.
        scheduler_->beginRound();
        source->op->forceFinish();
        scheduler_->drain(stop_);
    }
    std::erase_if(active, [this](NodeContext* n) { return cutOff_[static_cast<std::size_t>(n->index)]; });
}

void Engine::sleepUntilWall(TimeNs wakeAtNs) {
    std::unique_lock lock(mutex_);
    TimeNs delay = wakeAtNs - wallClockNs();
    if (delay > 0 && !woken_ && !stop_.load()) {
        wakeUp_.wait_for(lock, std::chrono::nanoseconds(std::min<TimeNs>(delay, 100'000'000)),
                         [&] { return woken_ || stop_.load(); });
    }
    woken_ = false;
}

void Engine::finishStragglers() {
    // Nodes in a cycle never see all their inputs end by progress alone: end them in graph order
    // once no work is left anywhere.
    for (auto& node : nodes_) {
        if (!node->finished && !node->failed && !stop_.load()) {
            scheduler_->beginRound();
            node->op->forceFinish();
            scheduler_->drain(stop_);
        }
    }
}

namespace {

// Whether the pool holds more than `limitBytes`; on crossing the limit each source gets a warning.
// Out of line: the guard's common path is a counter test, and with this inlined every call saved
// and restored the registers it needs.
[[gnu::noinline]] bool poolOverLimit(const std::vector<NodeContext*>& nodes, std::uint64_t limitBytes, bool wasOver) {
    const bool over = MemoryPool::instance().liveBytes() > limitBytes;
    if (over && !wasOver) {
        for (NodeContext* node : nodes) {
            if (node->isSource()) {
                node->warnings.push_back("memory limit of " + std::to_string(limitBytes >> 20) +
                                         " MiB reached: admission paused until the graph drains (consider rate control: burst)");
                ++node->warningCount;
            }
        }
    }
    return over;
}

}  // namespace

bool Engine::memoryGuardHolds() {
    // Reading the pool's live bytes costs a lock and a walk over threads: look every 64th time (a
    // source asks once per block, the engine once per round).
    if ((guardChecks_++ & 63) == 0) overMemoryLimit_ = poolOverLimit(nodes_, memoryLimitBytes_, overMemoryLimit_);
    return overMemoryLimit_;
}

RunOutcome Engine::run() {
    RunOutcome outcome;
    const TimeNs started = wallClockNs();
    runStartNs_ = started;
    telemetryActive_ = telemetry_->hasReaders() || scheduler_->usesEstimates();
    costClock_.enabled = telemetryActive_;
    if (telemetryActive_) {
        telemetry_->publish(started, started, "running");
        telemetry_->startWatch(started);
    }
    std::vector<NodeContext*> active;
    for (auto& node : nodes_) {
        if (node->isSource()) active.push_back(node);
        else node->op->start();
    }
    scheduler_->beginRound();
    scheduler_->drain(stop_);
    if (failuresPending_.load(std::memory_order_relaxed)) takeFailures();  // a node that failed as it started
    if (cutOffPending_) stopCutOffSources(active);
    const std::int64_t budget = burst_ > 0 ? burst_ : std::numeric_limits<std::int64_t>::max();
    while (!stop_.load(std::memory_order_relaxed)) {
        applyPendingChanges();
        if (telemetryActive_) telemetry_->tickRound(runStartNs_, "running");
        scheduler_->beginRound();
        bool produced = false;
        TimeNs wakeAt = std::numeric_limits<TimeNs>::max();
        if (memoryGuardHolds()) {
            ++admissionPauses_;
            scheduler_->drain(stop_);
            sleepUntilWall(wallClockNs() + 1'000'000);
            continue;
        }
        for (NodeContext* source : active) {
            if (stop_.load(std::memory_order_relaxed)) break;  // no call starts after a stop request
            if (cutOff_[static_cast<std::size_t>(source->index)]) continue;
            SourceStatus status = source->op->produce(budget);
            if (status.state == SourceStatus::State::Produced) produced = true;
            else if (status.state == SourceStatus::State::Waiting) wakeAt = std::min(wakeAt, status.wakeAtNs);
            if (failuresPending_.load(std::memory_order_relaxed)) takeFailures();
        }
        std::erase_if(active, [](NodeContext* n) { return n->finished || n->failed; });
        scheduler_->drain(stop_);
        if (failuresPending_.load(std::memory_order_relaxed)) takeFailures();
        if (cutOffPending_) stopCutOffSources(active);
        if (active.empty()) break;
        if (!produced) {
            // Waiting rounds are slow: check telemetry on each (tickRound() counts rounds).
            if (telemetryActive_) telemetry_->tick(wallClockNs(), runStartNs_, "running");
            // Woken for the next snapshot too: a source whose blocks come far apart (85 ms for 4096 samples at
            // 48 kHz) would otherwise set the telemetry's pace (12 snapshots a second at 30 Hz).
            sleepUntilWall(telemetryActive_ ? std::min(wakeAt, telemetry_->nextDueNs()) : wakeAt);
        }
    }
    if (!stop_.load()) {
        finishStragglers();
        outcome.completed = true;
    }
    if (failuresPending_.load(std::memory_order_relaxed)) takeFailures();  // the listener hears of every failure
    outcome.cutOffSources = cutOffSources_;
    outcome.stopped = stop_.load();
    const TimeNs ended = wallClockNs();
    outcome.wallSeconds = static_cast<double>(ended - started) / 1e9;
    if (telemetryActive_) {
        telemetry_->stopWatch();
        telemetry_->publish(ended, started, outcome.stopped ? "stopped" : "finished");
    }
    for (const auto& node : nodes_) {
        if (node->failed) outcome.failures.push_back("node '" + node->id + "': " + node->failure + originNote(*node));
    }
    return outcome;
}

void Engine::addFailuresWhileStopping(RunOutcome& outcome) const {
    for (const auto& node : nodes_) {
        if (!node->failed) continue;
        std::string failure = "node '" + node->id + "': " + node->failure + originNote(*node);
        if (std::find(outcome.failures.begin(), outcome.failures.end(), failure) == outcome.failures.end()) outcome.failures.push_back(std::move(failure));
    }
}

}  // namespace isochron
