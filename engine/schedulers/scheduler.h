// The scheduler contract: how emitted items reach their targets, and in what order queued work runs.
//
// The engine owns the outer loop (admitting items from sources, with optional rate control, then
// asking the scheduler to drain to quiescence). A scheduler decides two things: what deliver() does
// with an emitted item (run the target now, or queue it) and the order drain() runs queued work in.
// All schedulers give identical outputs for the same graph and input: operators see each input's
// items in order, and only the interleaving across ports and nodes differs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/graph_spec.h"
#include "engine/items/item.h"
#include "engine/operators/parameter.h"
#include "engine/time/clock_stride.h"

namespace isochron {

class NodeContext;

/// What a scheduler counted while running (for overhead comparisons). [value type]
struct SchedulerStats {
    std::uint64_t decisions = 0;  ///< scheduling decisions (a box or superbox chosen to run)
    std::uint64_t boxCalls = 0;   ///< box calls (trains run)
    /// Entries of per-box bookkeeping prepare() built (superbox: tree members, successor lists,
    /// plan entries; 0 for the others): shows whether set-up grows with the graph or its square.
    std::uint64_t setupEntries = 0;
    /// Ready boxes whose priority the decisions computed, or compared in a heap (`qos`; 0 for the
    /// others): shows whether a decision's cost grows with the number of ready boxes.
    std::uint64_t boxesExamined = 0;
};

/// Interface of every scheduler. [engine thread]
class Scheduler {
public:
    virtual ~Scheduler() = default;
    virtual std::string_view name() const = 0;
    /// Called once with the nodes before the run.
    virtual void prepare(const std::vector<NodeContext*>& nodes) { (void)nodes; }
    /// Called on the engine thread before each round of source admission (and before drains that
    /// do not follow one).
    virtual void beginRound() {}
    /// An item emitted toward input `port` of `target`. [engine thread] [no system allocation in steady state]
    virtual void deliver(NodeContext& target, int port, Item&& item) = 0;
    /// Run queued work until none is left or `stop` becomes true.
    virtual void drain(const std::atomic<bool>& stop) = 0;
    /// Whether this scheduler reads the nodes' cost and selectivity estimates (the engine then
    /// keeps them up to date).
    virtual bool usesEstimates() const { return false; }
    /// Whether a delivery to a node marked `directDelivery` (only DF marks nodes) may call its
    /// operator right now, from NodeContext::route without a virtual call: the stack is not nearly
    /// used up, and no stop was requested (refuseDirectCalls). A relaxed load is a plain load: the
    /// hop costs what it did. [engine thread] [no allocation]
    bool directCallAllowed() const { return stackAddress() > directCallStackFloor_.load(std::memory_order_relaxed); }
    /// A stop was requested: from now on every delivery queues (and the drain, seeing the stop, runs
    /// none), so the operator call in progress is the last one, also when it returns into an
    /// operator that goes on emitting. [any thread]
    void refuseDirectCalls() { directCallStackFloor_.store(kNoDirectCalls); }
    /// The calling function's stack pointer. Read directly on x86-64: __builtin_frame_address(0)
    /// makes its caller set up a frame pointer, 8 bytes of stack and two instructions more on each
    /// depth-first hop. [any thread] [no allocation]
    static const char* stackAddress() {
#if defined(__x86_64__)
        const char* pointer;
        asm("mov %%rsp, %0" : "=r"(pointer));
        return pointer;
#else
        return static_cast<const char*>(__builtin_frame_address(0));
#endif
    }

    /// Something the engine wants done every few dozen invocations while a drain runs (apply live
    /// parameters, publish telemetry). [engine thread]
    void setCheckpoint(std::function<void()> checkpoint) { checkpoint_ = std::move(checkpoint); }
    /// The engine's stop request: a box call (a train) ends at the next item once it is set, so a
    /// long queue under overload cannot delay a stop. [before the run]
    void setStopRequest(const std::atomic<bool>* stop) { stopRequest_ = stop; }
    /// Counters since the run started. [engine thread, or after the run]
    const SchedulerStats& stats() const { return stats_; }

protected:
    /// Invoke target's operator on one item, marking it as executing (for loop detection).
    static void invoke(NodeContext& target, int port, Item&& item);
    /// Pop and invoke the next queued item of input `port`.
    static void invokeQueued(NodeContext& target, int port);
    /// One box call with a train: run `box` on up to `limit` of the items queued at its inputs when
    /// the call starts (0 = all of them), taking ports in turn, until a stop is requested. Returns
    /// the items run. Worker
    /// threads pass withCheckpoints = false (checkpoints belong to the engine thread).
    std::size_t runTrain(NodeContext& box, std::size_t limit, bool withCheckpoints = true);
    /// Call in drain loops once per invocation; runs the engine's checkpoint about every
    /// kCheckpointPeriodNs of draining, after every invocation when invocations are slow (a box
    /// costing milliseconds: a fixed stride of 64 delayed telemetry snapshots for a quarter second).
    void checkpoint() {
        TimeNs now = 0;
        if (checkpointStride_.turn(now) && checkpoint_) checkpoint_();
    }

    SchedulerStats stats_;
    /// Direct calls below this stack address are queued instead (DF sets it every round, from the
    /// engine thread; refuseDirectCalls sets it past every address, from any thread).
    std::atomic<const char*> directCallStackFloor_{nullptr};
    /// The floor that refuses every direct call.
    static inline const char* const kNoDirectCalls = reinterpret_cast<const char*>(~std::uintptr_t{0});
    /// Sets the floor for a round, unless a stop was requested: the stop's thread may have refused
    /// direct calls just before (seq_cst on both sides: one of the two sees the other). [engine thread]
    void setDirectCallFloor(const char* floor) {
        directCallStackFloor_.store(floor);
        if (stopRequest_ != nullptr && stopRequest_->load()) directCallStackFloor_.store(kNoDirectCalls);
    }

    bool stopRequested() const { return stopRequest_ != nullptr && stopRequest_->load(std::memory_order_relaxed); }

private:
    static constexpr TimeNs kCheckpointPeriodNs = 1'000'000;
    std::function<void()> checkpoint_;
    const std::atomic<bool>* stopRequest_ = nullptr;
    ClockStride checkpointStride_{kCheckpointPeriodNs};
};

/// A scheduler's name, one-line doc and parameters (shared by the runner, bench and editor).
struct SchedulerInfo {
    std::string name;
    std::string summary;
    std::vector<ParamSpec> params;
};

/// Every scheduler this build knows, in display order.
const std::vector<SchedulerInfo>& availableSchedulers();

/// Validated scheduler parameters (defaults filled in). Throws std::invalid_argument naming the
/// scheduler or parameter when the name is unknown or a value is invalid.
ParamSet schedulerParams(const SchedulerSpec& spec);
/// A new scheduler for `spec`; throws std::invalid_argument as schedulerParams() does.
std::unique_ptr<Scheduler> createScheduler(const SchedulerSpec& spec);
/// Parse "name" or "name:key=value,key=value" (the runner's --scheduler syntax). Throws
/// std::invalid_argument naming the scheduler and key for an unknown key, a bad value or a key given twice.
SchedulerSpec parseSchedulerText(const std::string& text);

}  // namespace isochron
