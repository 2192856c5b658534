// Operator: the one API every processing box implements, built-in or plugin.
//
// Lifecycle (same verbs everywhere): create (descriptor factory) -> activate -> process/produce ...
// -> deactivate -> destroy. The engine calls the public non-virtual entry points (activate, deliver,
// produce, applyParameter, deactivate); they keep the bookkeeping (counts, progress propagation,
// arrival-time stamping) in one place and then call the protected hooks an operator overrides.
//
// Threading: all entry points and hooks run on the engine thread that runs the graph, one at a time
// for a given operator. Hooks must not block. process() and produce() should not allocate from the
// system in the steady state: use SigSeg::allocate (pooled) and prepare buffers in onActivate().
//
// Progress (punctuation): a Progress item on an input says no data with time < t will arrive there
// again. The engine tracks it per input and calls onProgress() with the minimum over inputs when
// that rises; whatever onProgress() returns (default: the same time) is forwarded on every output.
// An operator that holds data back (a window being filled) returns the time of the oldest data it
// still holds. When every input has ended, onFinish() flushes and the end is forwarded. An end that
// a failed node upstream caused is marked cut short on its way down: a sink whose input was cut
// short gets no onFinish() and ends as in a stopped run (onDeactivate only), so a file sink keeps
// the file it would have replaced and leaves the shortened output beside it.
// An item older than its input's progress is late: operators that can tell (order-agnostic ones)
// count it with countLate() and route it to a late output; nothing is dropped silently.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/items/item.h"
#include "engine/operators/descriptor.h"
#include "engine/runtime/input_state.h"

namespace isochron {

class NodeContext;
struct OutputState;

/// What a source reports after produce(). [value type]
struct SourceStatus {
    enum class State { Produced, Waiting, Finished };
    State state = State::Produced;
    TimeNs wakeAtNs = 0;  ///< Waiting: wall-clock time (Clock::wall) worth trying again

    static SourceStatus produced() { return {State::Produced, 0}; }
    static SourceStatus waitUntil(TimeNs wallNs) { return {State::Waiting, wallNs}; }
    static SourceStatus finished() { return {State::Finished, 0}; }
};

/// An error an operator reports from a hook; stops that node with this message (names the node).
class OperatorError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What an operator holds back between items (buffered items, open windows, join state), for
/// telemetry and memory comparisons. [value type]
struct HeldState {
    std::uint64_t items = 0;      ///< data items (or partial aggregates) held now
    std::uint64_t bytes = 0;      ///< memory they take now, approximately
    std::uint64_t peakItems = 0;  ///< the most held at once since activation
    std::uint64_t peakBytes = 0;
};

/// Base class of all operators. [engine thread unless stated]
class Operator {
public:
    virtual ~Operator();

    /// Operators are allocated next to their node's engine state while an engine builds its graph
    /// (so a traversal walks memory in order), and from the heap otherwise. [any thread]
    static void* operator new(std::size_t bytes);
    static void operator delete(void* memory) noexcept;

    // ---- Entry points called by the engine -------------------------------------------------
    /// Bind to the engine's node and run onActivate(). [engine thread, may allocate]
    void activate(NodeContext& node);
    /// Start of the run: a non-source whose inputs are all unconnected finishes at once. [engine thread]
    void start();
    /// Hand one input item to the operator: Progress updates the input's progress, anything else
    /// goes to process(). A hook that throws disables the node (see NodeContext::failed). [engine thread]
    void deliver(int inputPort, Item&& item);
    /// deliver() to the operator of `node`, for schedulers, which hold the node: a hop then need
    /// not read the node back from its operator. [engine thread]
    static void deliverTo(NodeContext& node, int inputPort, Item&& item);
    /// deliverTo() when the caller already holds the node's operator (an output's only target keeps
    /// it): one dependent load less per hop. [engine thread]
    static void deliverTo(NodeContext& node, Operator& op, int inputPort, Item&& item);
    /// Sources: let the operator emit what it has ready, at most `budget` blocks. [engine thread]
    SourceStatus produce(std::int64_t budget);
    /// End every input now (the engine's way out of cycles once no work is left). [engine thread]
    void forceFinish();
    /// Apply a live parameter change (already validated against the spec). [engine thread]
    void applyParameter(std::string_view name, const ParamValue& value);
    /// Run onDeactivate() and unbind. [engine thread]
    void deactivate();

    // ---- What an operator sees of its node (valid from onActivate() on) ----------------------
    /// The node's id in the graph (for messages). [engine thread] [no allocation]
    std::string_view nodeId() const;
    /// The node's validated parameters, defaults filled in. [engine thread] [no allocation]
    const ParamSet& params() const;
    /// Number of input ports after repeated ports are expanded. [engine thread] [no allocation]
    int inputCount() const;
    /// Number of output ports after repeated ports are expanded. [engine thread] [no allocation]
    int outputCount() const;
    /// An input port with the type that actually flows in. [engine thread] [no allocation]
    const ResolvedPort& inputPort(int index) const;
    /// An output port with its concrete type. [engine thread] [no allocation]
    const ResolvedPort& outputPort(int index) const;
    /// Whether an input is connected (unconnected optional inputs count as ended). [engine thread] [no allocation]
    bool inputConnected(int index) const;
    /// Progress promised so far on one input (kEndOfTime once it ended; onProgress() gets the
    /// minimum). [engine thread] [no allocation]
    TimeNs inputProgress(int index) const { return inputs_[static_cast<std::size_t>(index)].progress; }
    /// What the operator holds back now (default: nothing). Read by telemetry between hooks.
    /// [engine thread] [no allocation]
    virtual HeldState heldState() const { return {}; }
    /// Sources: whether the items follow the wall clock (a capture device, a replay at pace > 0), so
    /// that the graph must keep up with them; a source that emits as fast as the graph takes its items
    /// (pace 0) says false. Default true: a source that does not say is taken as live. Asked at any
    /// time of the run (a pace may change). [engine thread] [no allocation]
    virtual bool followsWallClock() const { return true; }

protected:
    // ---- Hooks -----------------------------------------------------------------------------
    /// Read parameters, size buffers, plan FFTs. Throw OperatorError to refuse (e.g. missing file).
    /// [engine thread, before the run] [may allocate]
    virtual void onActivate() {}
    /// One data item on `inputPort`. May emit any number of items. An exception disables the node.
    /// [engine thread] [no system allocation in the steady state]
    virtual void process(int inputPort, Item&& item);
    /// Sources only: emit up to one batch of items and say whether more will come.
    /// [engine thread] [no system allocation in the steady state]
    virtual SourceStatus onProduce();
    /// Minimum progress over inputs rose to `inputProgress`; return the progress this operator can
    /// promise on its outputs (never more than inputProgress unless it knows better).
    /// [engine thread] [no system allocation]
    virtual TimeNs onProgress(TimeNs inputProgress) { return inputProgress; }
    /// Every input has ended: emit what is still buffered. [engine thread] [may allocate]
    virtual void onFinish() {}
    /// A live parameter changed (params() already holds the new value). [engine thread] [may allocate]
    virtual void onParameterChanged(std::string_view /*name*/) {}
    /// After the run: close files, release what onActivate() took. Must not throw.
    /// [engine thread] [may allocate]
    virtual void onDeactivate() {}

    // ---- Output -----------------------------------------------------------------------------
    /// Send an item on an output port. Items without an arrival time inherit the one of the input
    /// item being processed. [engine thread] [no system allocation]
    void emit(int outputPort, Item&& item);
    /// Send an item this operator held back since it arrived (a buffer, a delay line) with its own
    /// arrival time, so latency at the outputs includes the time it was held. [engine thread] [no system allocation]
    void emitHeld(int outputPort, Item&& item);
    /// Promise that no item with time < t will follow on any output; ignored if not an advance.
    /// [engine thread] [no system allocation]
    void emitProgress(TimeNs t);
    /// Record a warning for this node (shown by the runner and the editor). [engine thread] [may allocate]
    void warn(std::string message);
    /// Say what the node chose while starting (the device it opened, a recording standing in for one), for
    /// the runner and the editor to show as the run starts. [engine thread, onActivate] [may allocate]
    void notice(std::string message);
    /// Count a data item that arrived on `inputPort` older than that input's progress (reported
    /// per input in telemetry and the run summary). [engine thread] [no allocation]
    void countLate(int inputPort);
    /// Arrival time of the item being (or last) processed; 0 before the first item. [engine thread] [no allocation]
    TimeNs currentArrivalNs() const { return currentArrivalNs_; }
    /// Sources, inside onProduce(): how many blocks the engine admits in this call (rate control).
    /// [engine thread] [no allocation]
    std::int64_t productionBudget() const { return productionBudget_; }
    /// Sources, before each block: false once a stop is requested and while the engine's memory
    /// guard holds (stop emitting and return; a paced source falls behind and later drops what is
    /// overdue). [no allocation]
    bool admissionOpen() const;
    /// Whether some source of this run follows the wall clock (Operator::followsWallClock): false in
    /// an import where every source is unpaced, where a node may hold the engine thread up (wait for
    /// a disk) without anything being lost. [engine thread] [no allocation]
    bool runFollowsWallClock() const;
    /// Whether a stop of the run was requested: a node waiting for the outside world ends its wait. [any thread] [no allocation]
    bool stopRequested() const;

private:
    void handleProgress(int inputPort, Item&& marker);
    void forwardProgress(TimeNs t, Item* reusableMarker = nullptr);
    void finish();
    /// Mark every input this node's outputs feed as cut short (before the end is sent on them).
    void markTargetsCutShort();
    void fail(const char* hook, const std::string& message);
    /// fail() with the message of the exception being handled, called from a catch block. Out of
    /// line so that the message string takes no room in the frame of every depth-first hop.
    [[gnu::noinline, gnu::cold]] void failOnCurrentException(const char* hook);
    [[gnu::noinline]] void recordAtOutput();
    /// deliverTo()'s path for outputs and top-level or timed invocations (latency, cost clock).
    [[gnu::noinline]] void processAccounted(int inputPort, Item&& item);
    [[gnu::noinline]] void processTimed(int inputPort, Item&& item);
    NodeContext* startTiming();
    void stopTiming(NodeContext* caller);

    NodeContext* node_ = nullptr;
    const InputState* inputs_ = nullptr;  // node_'s inputs (fixed before activation), read inline per item
    OutputState* outputs_ = nullptr;      // node_'s outputs (fixed before activation): emit() reads them directly
    // Output 0's only target, copied here at activation (targets are fixed by then): a depth-first hop
    // reaches the next operator from its own object, one dependent load instead of two.
    NodeContext* firstTargetNode_ = nullptr;
    Operator* firstTargetOperator_ = nullptr;
    TimeNs currentArrivalNs_ = 0;
    std::int64_t productionBudget_ = 0;
};

}  // namespace isochron
