// The engine: turns a validated graph into running nodes and drives them with a scheduler.
//
// Loop: each round admits items from every active source (all it has ready, or at most `burst`
// per source with rate control), then lets the scheduler drain the graph to quiescence. When no
// source has anything ready the engine sleeps until the earliest wake-up a source asked for or until
// wake() is called. Rate control (burst > 0) bounds the memory in flight, as in XStream section III-C.
//
// Failures: a node whose hook throws is disabled (Operator). The engine then stops every source
// whose items can no longer reach a working output (each path from it ends at a failed node): a
// run whose only sink failed ends at once, while the branches that still reach an output run to
// their end.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <string>
#include <vector>

#include "engine/graph/validated_graph.h"
#include "engine/runtime/node_context.h"
#include "engine/schedulers/scheduler.h"
#include "engine/telemetry/telemetry_collector.h"
#include "engine/time/wall_clock.h"

namespace isochron {

/// How a run ended. [value type]
struct RunOutcome {
    bool completed = false;  ///< every source finished and all work drained
    bool stopped = false;    ///< requestStop() ended it
    double wallSeconds = 0;
    std::vector<std::string> failures;  ///< "node 'x': message" for every node that failed
    /// Sources the engine stopped early because every path from them ended at a failed node (their
    /// items could reach no output any more), in the order they were stopped.
    std::vector<std::string> cutOffSources;
};

/// Runs one graph once. [constructed and run on the engine thread; requestStop/wake/postParameter from any thread]
class Engine {
public:
    /// Instantiate and activate every operator. Throws GraphException naming each node that
    /// refused to activate, std::invalid_argument for a bad scheduler spec, and StartStopped when
    /// `stop` (asked every kStepsPerStopPoll nodes and once at the end) says so, every node activated
    /// so far deactivated.
    Engine(const ValidatedGraph& graph, const SchedulerSpec& scheduler, const StopPoll& stop = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    /// Run until every source has finished and the graph is drained, or until requestStop().
    /// [engine thread]
    RunOutcome run();
    /// Add to `outcome.failures` the nodes whose deactivate failed them (a plugin's, see
    /// OperatorStopFailure), once the caller deactivated the nodes after run(). [engine thread]
    void addFailuresWhileStopping(RunOutcome& outcome) const;
    /// Ask run() to return soon. [any thread]
    void requestStop();
    /// Wake a sleeping run() because a source may have data. [any thread]
    void wake();
    /// A stream of telemetry snapshots at `hz` (20-60 is typical) for one reader; open before run().
    /// Reading it never blocks the engine. [any thread, before run()]
    std::shared_ptr<SnapshotChannel> openTelemetry(double hz = 30.0);
    /// Show every telemetry snapshot, taken at `hz`, to `relay` first: a run spread over ranks
    /// gathers them on rank 0 (docs/scale-out.md). [any thread, before run()]
    void relayTelemetry(std::shared_ptr<TelemetryRelay> relay, double hz) {
        telemetry_->setRate(hz);
        telemetry_->setRelay(std::move(relay));
    }
    /// Change a live parameter while running; validated now (throws std::invalid_argument naming
    /// the node and parameter), applied by the engine thread between items. [any thread]
    void postParameter(const std::string& nodeId, const std::string& name, const ParamValue& value);
    /// Pass every data item output `port` of `nodeId` sends to `tap` (see wire_tap.h), from the next
    /// item boundary on, replacing the port's tap if it has one; a null `tap` detaches. Works before
    /// and during run(). Checked now (throws std::invalid_argument naming the node or port); the
    /// engine keeps `tap` alive until it is replaced or the engine is gone. [any thread]
    void setTap(const std::string& nodeId, const std::string& port, std::shared_ptr<WireTap> tap);
    /// Called with "node 'x': message" (the text RunOutcome::failures will hold) soon after a node
    /// fails, not only when the run ends: at the engine's next checkpoint, source admission or
    /// round. Runs on the engine thread; must not call back into the engine. [before run()]
    void setFailureListener(std::function<void(const std::string& failure)> listener) { failureListener_ = std::move(listener); }
    /// A node's hook threw and the node is now disabled (Operator reports it here). The engine
    /// handles it on its own thread soon after. [any thread that runs the node's operator]
    void nodeFailed(const NodeContext& node);

    /// The running nodes, in graph-file order.
    const std::vector<NodeContext*>& nodes() const { return nodes_; }
    NodeContext* findNode(std::string_view id) const;
    const Scheduler& scheduler() const { return *scheduler_; }
    /// Items admitted per source per round with rate control; 0 = no rate control.
    std::int64_t burst() const { return burst_; }
    /// Overload guard: while the memory pool holds more than this, sources are not polled (they
    /// fall behind and, if paced, drop data) until the graph drains. Checked every 64 blocks or
    /// rounds, so it may be exceeded by what those admit. Default 1 GiB. [before run()]
    void setMemoryLimit(std::uint64_t bytes) { memoryLimitBytes_ = bytes; }
    std::uint64_t memoryLimit() const { return memoryLimitBytes_; }
    /// Rounds in which admission was paused by the memory guard.
    std::uint64_t admissionPauses() const { return admissionPauses_; }
    /// Whether `source` may emit now: false once a stop is requested (a source far behind its pace
    /// would otherwise emit seconds of blocks in one call before the stop is seen), once its items
    /// can reach no working output (see cutOff_), and while the memory guard holds. Cheap: looks at
    /// the pool on every 64th call. Also publishes a telemetry snapshot when one is due, so a backlog
    /// admitted in one round does not freeze the plots. [engine thread]
    bool admissionOpen(const NodeContext& source) {
        if (telemetryActive_) telemetry_->tickAdmission(runStartNs_, "running");
        if (failuresPending_.load(std::memory_order_relaxed)) [[unlikely]] takeFailures();
        return !stop_.load(std::memory_order_relaxed) && !cutOff_[static_cast<std::size_t>(source.index)] && !memoryGuardHolds();
    }
    /// Whether a stop was requested (requestStop()); while the constructor starts the nodes, also
    /// whether its `stop` poll says so, so a node's activate that waits on something (a sandboxed
    /// plugin's child) can end at a stop. [any thread; during the constructor: the engine thread] [no allocation]
    bool stopRequested() const { return stop_.load(std::memory_order_relaxed) || (startStop_ && (*startStop_)()); }
    /// Whether any source of the graph follows the wall clock now (Operator::followsWallClock), i.e.
    /// the run is not an unpaced import: this engine's own sources, or those of the graph's other
    /// partitions (setSourcesElsewhereFollowWallClock). [engine thread] [no allocation]
    bool anySourceFollowsWallClock() const;
    /// Whether a source of the graph that runs outside this engine (in another partition, on another
    /// rank or thread) follows the wall clock, as the partitions agreed before the run: an engine
    /// running one partition then answers anySourceFollowsWallClock() for the whole graph, also
    /// when no channel feeds it. [before run()]
    void setSourcesElsewhereFollowWallClock(bool follows) { sourcesElsewhereFollowWallClock_ = follows; }
    /// Marks `source`, a node of this engine, as standing in for sources of the graph that run
    /// elsewhere (a partition's channel receiver): when everything it feeds fails, it is stopped like
    /// any source, but with no "stopped early" warning and not in RunOutcome::cutOffSources, which
    /// name the graph's own sources (their partition stops them, with the warning). [before run()]
    void markStandInSource(const NodeContext& source) { standInSource_[static_cast<std::size_t>(source.index)] = 1; }
    /// Items of all input queues together (for telemetry and tests). [engine thread]
    std::size_t queuedItems() const;

private:
    struct PendingParameter {
        NodeContext* node;
        std::string name;
        ParamValue value;
    };
    struct PendingTap {
        OutputState* output;
        std::shared_ptr<WireTap> tap;
    };
    /// Live parameters and taps posted from other threads. [engine thread]
    void applyPendingChanges();
    void checkpoint();
    void sleepUntilWall(TimeNs wakeAtNs);
    void finishStragglers();
    /// Report the failures nodeFailed() queued, and mark the sources they cut off. [engine thread]
    void takeFailures();
    /// Fill `reaches` with whether each node reaches a sink that has not failed (sinks included). [engine thread]
    void findNodesReachingOutputs(std::vector<char>& reaches);
    /// End the active sources that were cut off and take them out of `active`. [engine thread]
    void stopCutOffSources(std::vector<NodeContext*>& active);

    // Node state lives in one region, in graph order, so a traversal walks memory forward whatever
    // state the heap was in: the arena holds ports and targets, nodeStorage_ the contexts.
    std::pmr::monotonic_buffer_resource arena_;
    std::vector<NodeContext> nodeStorage_;
    std::vector<NodeContext*> nodes_;
    std::unique_ptr<Scheduler> scheduler_;
    bool memoryGuardHolds();

    CostClock costClock_;
    std::unique_ptr<TelemetryCollector> telemetry_;
    bool telemetryActive_ = false;  // estimates refreshed (readers attached or the scheduler uses them)
    bool sourcesElsewhereFollowWallClock_ = false;
    TimeNs runStartNs_ = 0;
    std::int64_t burst_ = 0;
    std::uint64_t memoryLimitBytes_ = std::uint64_t{1} << 30;
    std::uint64_t guardChecks_ = 0;
    bool overMemoryLimit_ = false;
    std::uint64_t admissionPauses_ = 0;
    std::atomic<bool> stop_{false};
    const StopPoll* startStop_ = nullptr;  // the constructor's stop poll while it runs, else null
    std::atomic<bool> changesPending_{false};
    std::mutex mutex_;  // guards pending_, pendingTaps_ and the sleep
    std::condition_variable wakeUp_;
    bool woken_ = false;
    std::vector<PendingParameter> pending_;
    std::vector<PendingTap> pendingTaps_;
    std::vector<std::pair<OutputState*, std::shared_ptr<WireTap>>> taps_;  // engine thread: the attached taps' owners

    // Failures and the sources they cut off. nodeFailed() may run on a scheduler's worker thread:
    // it only queues the node; the engine thread does the rest.
    std::mutex failureMutex_;  // guards newFailures_
    std::vector<const NodeContext*> newFailures_;
    std::atomic<bool> failuresPending_{false};
    std::function<void(const std::string&)> failureListener_;
    // Engine thread: the edges reversed (predecessors of node v: predecessors_[predecessorStart_[v]
    // .. predecessorStart_[v + 1]), one entry per edge), which nodes reached a sink before anything
    // failed and which reach one that works now, and the failures taken so far (the engine's copy of
    // NodeContext::failed, which a worker thread may be writing).
    std::vector<int> predecessorStart_;
    std::vector<int> predecessors_;
    std::vector<char> reachedOutputAtStart_;
    std::vector<char> reachesOutput_;
    std::vector<char> failureTaken_;
    std::vector<int> searchStack_;
    /// Sources that reached a sink before failures and no longer reach one that works: admission
    /// closes for them and the engine ends them. Sources that never reached a sink are left alone.
    std::vector<char> cutOff_;
    std::vector<char> standInSource_;  // markStandInSource(): stopped without a warning
    bool cutOffPending_ = false;  // some source in cutOff_ is not stopped yet
    std::vector<std::string> cutOffSources_;
};

}  // namespace isochron
