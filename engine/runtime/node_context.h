// The engine's side of a node: its operator, ports, routing, queues, progress and counters.
// Operators see it only through Operator's accessors; schedulers and telemetry read it directly.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include "engine/graph/validated_graph.h"
#include "engine/operators/operator.h"
#include "engine/runtime/input_state.h"
#include "engine/runtime/item_queue.h"
#include "engine/runtime/published_count.h"
#include "engine/runtime/wire_tap.h"
#include "engine/schedulers/scheduler.h"
#include "engine/qos/qos_graph.h"
#include "engine/telemetry/latency_histogram.h"

namespace isochron {

class Engine;
class Scheduler;
class NodeContext;

/// While alive, operators created on this thread are allocated from `arena` (engine-internal:
/// the engine builds a graph's operators next to their nodes). [one thread]
class OperatorPlacement {
public:
    explicit OperatorPlacement(std::pmr::memory_resource* arena);
    ~OperatorPlacement();
    OperatorPlacement(const OperatorPlacement&) = delete;
    OperatorPlacement& operator=(const OperatorPlacement&) = delete;

private:
    std::pmr::memory_resource* previous_;
};

/// Where an output port's items go.
struct Target {
    NodeContext* node;
    int port;
};

/// One output port at run time. What a hop reads and counts comes first, in one cache line.
/// [engine thread; the counts readable from any thread]
struct alignas(64) OutputState {
    explicit OutputState(std::pmr::memory_resource* arena) : targets(arena) {}
    /// The target when there is exactly one (the common case): a hop reads it here instead of
    /// through the vector, one dependent load less. Null node otherwise.
    Target onlyTarget{nullptr, 0};
    /// onlyTarget's operator, so a hop loads it alongside the node rather than after it.
    Operator* onlyTargetOperator = nullptr;
    WireTap* tap = nullptr;  ///< sees every data item sent (Engine::setTap owns it); usually none
    PublishedCount items;    ///< data items sent (progress excluded)
    PublishedCount samples;
    PublishedCount progressItems;  ///< progress markers sent
    std::pmr::vector<Target> targets;
    ResolvedPort port;
};

/// What only outputs (nodes without output ports) record. [engine thread]
struct SinkStats {
    explicit SinkStats(QosGraph graph) : qos(std::move(graph)) {}
    QosGraph qos;              ///< latency -> utility for this output
    LatencyHistogram latency;  ///< emission time - arrival time per item, whole run
    LatencyHistogram recent[2];  ///< the current and the previous second (for live percentiles)
    TimeNs recentStartNs = 0;    ///< when recent[0] started
    double utilitySum = 0;       ///< QoS utility summed over items with a known arrival time
    TimeNs lastLatencyNs = 0;
    TimeNs firstItemWallNs = 0;
    TimeNs lastItemWallNs = 0;
};

/// Sampled measurement of each operator's own processing time (its exclusive time: what it spends
/// outside the operators it calls through emit). One top-level invocation in `period` is timed,
/// including everything it calls, so costs are estimated at a small fraction of the clock reads
/// full timing would need. The telemetry collector adapts `period` to the measured costs so that
/// the clock reads stay near 1% of the work (cheap operators are sampled more sparsely).
/// [engine thread; inCall readable from any thread]
struct CostClock {
    static constexpr std::uint32_t kMinPeriod = 16;
    static constexpr std::uint32_t kMaxPeriod = 4096;
    /// Whether an invocation is under way and, if so, whether it is the timed one. Nested calls
    /// (an operator's emit running the next operator) only read it: an untimed nested call does
    /// no bookkeeping at all, which keeps a depth-first hop free of counter updates.
    enum class State : std::uint8_t { Idle, Untimed, Timed };
    bool enabled = false;  ///< set when telemetry is read or a scheduler uses cost estimates
    State state = State::Idle;
    std::uint32_t counter = 0;
    std::uint32_t period = kMinPeriod;  ///< top-level invocations per timed one
    NodeContext* current = nullptr;
    TimeNs mark = 0;
    /// The node whose hook the engine thread entered last (null between top-level calls), which the
    /// telemetry watcher names when a call keeps the thread past a snapshot's time (deliverTo says
    /// why a nested hop does not put its caller back). Relaxed stores: plain moves, on a hot line.
    std::atomic<const NodeContext*> inCall{nullptr};
};

/// A node as the engine runs it. What a delivery reads (operator, flags, sink, cost clock, the
/// inputs' storage) fills the first cache line, which starts the object: a 1000-node chain touches
/// one line per node here instead of two.
/// [engine thread; read-only elsewhere after the run]
class alignas(64) NodeContext {
public:
    /// Ports and targets are allocated from `arena` (the engine keeps all nodes' in one region).
    explicit NodeContext(std::pmr::memory_resource* arena) : inputs(arena), outputs(arena) {}

    // ---- Hot (first cache line) ----
    std::unique_ptr<Operator> op;
    Scheduler* scheduler = nullptr;
    std::unique_ptr<SinkStats> sink;  ///< only for nodes without outputs
    CostClock* costClock = nullptr;   ///< the engine's (shared by its nodes)
    bool onStack = false;    ///< DF: the node is executing (a delivery to it closes a loop)
    bool scheduled = false;  ///< queueing schedulers: already in the ready list
    bool finished = false;   ///< every input ended (or the source finished) and onFinish ran (not for a sink cut short)
    bool failed = false;     ///< a hook threw: the node is disabled, its outputs ended
    bool inCycle = false;    ///< part of a directed cycle (a delivery to it may re-enter it)
    /// DF: not in a cycle and nothing queued, so a delivery may call the operator directly.
    bool directDelivery = false;
    std::pmr::vector<InputState> inputs;
    std::pmr::vector<OutputState> outputs;
    PublishedCount calls;  ///< sources: produce() invocations (others: see callCount())
    TimeNs minimumInputProgress = kBeginningOfTime;
    TimeNs outputProgress = kBeginningOfTime;

    // ---- Cold ----
    std::string id;
    int index = 0;  ///< position in Engine::nodes()
    const OperatorDescriptor* descriptor = nullptr;
    ParamSet params;
    Engine* engine = nullptr;
    std::string failure;
    std::vector<std::string> warnings;  ///< the first 100
    std::vector<std::string> notices;   ///< what the operator chose while starting (Operator::notice)
    std::uint64_t warningCount = 0;
    std::uint64_t lastServed = 0;  ///< scheduler tick of the last service

    // ---- Estimates (CostClock samples; refreshed by the engine for telemetry and schedulers) ----
    std::int64_t timedNs = 0;        ///< exclusive time over timed invocations
    std::uint64_t timedCalls = 0;    ///< timed invocations
    double costEstimateNs = 0;       ///< running estimate of exclusive time per invocation
    double selectivityEstimate = 1;  ///< running estimate of data items out per item in

    bool isSource() const { return descriptor->isSource(); }
    /// Hook invocations: produce() calls for a source, items processed otherwise.
    std::uint64_t callCount() const {
        std::uint64_t total = calls;
        for (const auto& in : inputs) total += in.items;
        return total;
    }
    bool isSink() const { return outputs.empty(); }
    /// Items waiting in this node's input queues.
    std::size_t queuedItems() const;

    /// Send an item to every target of output `port` (copies for all but the last). [engine thread]
    inline void route(int port, Item&& item) { routeOutput(outputs[static_cast<std::size_t>(port)], std::move(item)); }
    /// route() for one of this node's outputs already at hand (Operator::emit holds them). [engine thread]
    inline void routeOutput(OutputState& out, Item&& item);
    /// routeOutput() for an output whose only target the caller already holds (Operator::emit keeps
    /// output 0's): the target does not wait on a load from `out`. [engine thread]
    inline void routeToOnlyTarget(OutputState& out, NodeContext& target, Operator& targetOperator, Item&& item);

private:
    /// Counts `item` as sent on `out`; true when a wire tap must see it first (routeObserved).
    static inline bool countSent(OutputState& out, const Item& item);
    /// Gives `item` to one target: DF's direct call while the stack allows, else the scheduler.
    inline void handTo(NodeContext& target, Operator& targetOperator, int port, Item&& item);
    void routeToMany(OutputState& out, Item&& item);
    /// route() for an output with a wire tap: the tap sees the item, then its targets get it (out of
    /// line, so the common path calls nothing but the target).
    void routeObserved(OutputState& out, Item&& item);
};

inline bool NodeContext::countSent(OutputState& out, const Item& item) {
    if (item.isProgress()) {
        ++out.progressItems;
        return false;
    }
    ++out.items;
    out.samples += static_cast<std::uint64_t>(item.sampleCount());
    return out.tap != nullptr;
}

inline void NodeContext::handTo(NodeContext& target, Operator& targetOperator, int port, Item&& item) {
    // A target DF marked for direct delivery runs at once without the scheduler's virtual call.
    if (target.directDelivery && scheduler->directCallAllowed()) [[likely]] {
        return Operator::deliverTo(target, targetOperator, port, std::move(item));
    }
    return scheduler->deliver(target, port, std::move(item));
}

inline void NodeContext::routeOutput(OutputState& out, Item&& item) {
    if (countSent(out, item)) [[unlikely]] return routeObserved(out, std::move(item));
    // One target is the common case: hand over directly (a tail call, no frame kept).
    if (out.onlyTarget.node) [[likely]] return handTo(*out.onlyTarget.node, *out.onlyTargetOperator, out.onlyTarget.port, std::move(item));
    routeToMany(out, std::move(item));
}

inline void NodeContext::routeToOnlyTarget(OutputState& out, NodeContext& target, Operator& targetOperator, Item&& item) {
    if (countSent(out, item)) [[unlikely]] return routeObserved(out, std::move(item));
    return handTo(target, targetOperator, out.onlyTarget.port, std::move(item));
}

}  // namespace isochron
