#include "engine/operators/operator.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <memory_resource>
#include <new>
#include <optional>

#include "engine/operators/operator_error_in_hook.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/node_call_scope.h"
#include "engine/runtime/node_context.h"

namespace isochron {

Operator::~Operator() = default;

namespace {

// What the exception being handled says: operators, plugins especially, may throw anything.
std::string currentExceptionMessage() {
    try {
        throw;
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "threw something that is not a std::exception";
    }
}

// The state of a top-level invocation starting now: timed if it is the one in `period` that is.
CostClock::State openInvocation(CostClock& clock) {
    if (!clock.enabled || ++clock.counter < clock.period) return CostClock::State::Untimed;
    clock.counter = 0;
    return CostClock::State::Timed;
}

constexpr std::size_t kCacheLine = 64;

// Set by OperatorPlacement while an engine creates its operators.
thread_local std::pmr::memory_resource* placementArena = nullptr;

// Precedes every operator allocation: says where the memory came from.
struct alignas(std::max_align_t) OperatorAllocation {
    std::pmr::memory_resource* arena;  // null: the heap
};

}  // namespace

OperatorPlacement::OperatorPlacement(std::pmr::memory_resource* arena) : previous_(placementArena) { placementArena = arena; }
OperatorPlacement::~OperatorPlacement() { placementArena = previous_; }

void* Operator::operator new(std::size_t bytes) {
    const std::size_t total = sizeof(OperatorAllocation) + bytes;
    // In an arena the allocation starts a cache line, so a small operator's fields (vtable pointer,
    // node, ports) share one line with the header.
    void* raw = placementArena ? placementArena->allocate(total, kCacheLine) : ::operator new(total);
    auto* header = new (raw) OperatorAllocation{placementArena};
    return header + 1;
}

void Operator::operator delete(void* memory) noexcept {
    if (!memory) return;
    auto* header = static_cast<OperatorAllocation*>(memory) - 1;
    // Arena memory is released with the arena, after every operator in it is destroyed.
    if (!header->arena) ::operator delete(header);
}

void Operator::activate(NodeContext& node) {
    node_ = &node;
    inputs_ = node.inputs.data();
    outputs_ = node.outputs.data();
    if (!node.outputs.empty()) {
        firstTargetNode_ = node.outputs.front().onlyTarget.node;
        firstTargetOperator_ = node.outputs.front().onlyTargetOperator;
    }
    for (auto& in : node.inputs) {
        if (!in.connected) in.progress = kEndOfTime;
    }
    onActivate();
}

void Operator::start() {
    if (node_->isSource() || node_->finished) return;
    bool anyConnected = std::any_of(node_->inputs.begin(), node_->inputs.end(), [](const InputState& in) { return in.connected; });
    if (!anyConnected) finish();
}

void Operator::deliver(int inputPort, Item&& item) { deliverTo(*node_, inputPort, std::move(item)); }

void Operator::deliverTo(NodeContext& node, int inputPort, Item&& item) { deliverTo(node, *node.op, inputPort, std::move(item)); }

void Operator::deliverTo(NodeContext& node, Operator& op, int inputPort, Item&& item) {
    if (node.failed) [[unlikely]] return;
    if (item.isProgress()) return op.handleProgress(inputPort, std::move(item));
    InputState& in = node.inputs[static_cast<std::size_t>(inputPort)];
    ++in.items;
    in.samples += static_cast<std::uint64_t>(item.sampleCount());
    op.currentArrivalNs_ = item.arrivalNs();
    // A hop nested in an untimed invocation (depth first) into an operator that is not an output has
    // nothing more to keep than the node it enters: the rest is out of line, so this path needs almost no frame.
    CostClock& clock = *node.costClock;
    if (node.sink || clock.state != CostClock::State::Untimed) [[unlikely]] {
        return op.processAccounted(inputPort, std::move(item));
    }
    // Not put back when the call returns: keeping the outer node across the call cost the hop two
    // saved registers (5% per hop in EngineBench). The top-level call's end puts it back.
    clock.inCall.store(&node, std::memory_order_relaxed);
    try {
        op.process(inputPort, std::move(item));
    } catch (...) {
        op.failOnCurrentException("process");
    }
}

void Operator::processAccounted(int inputPort, Item&& item) {
    NodeContext& node = *node_;
    // An output's call is where a run waits on the outside world (a pipe nobody reads): named if it
    // does not return after a stop request.
    std::optional<NodeCallScope> marked;
    if (node.sink) {
        recordAtOutput();
        marked.emplace(node, "process");
    }
    CostClock& clock = *node.costClock;
    const CostClock::State outer = clock.state;
    const NodeContext* outerCall = clock.inCall.load(std::memory_order_relaxed);
    clock.inCall.store(&node, std::memory_order_relaxed);
    if (outer == CostClock::State::Idle) clock.state = openInvocation(clock);
    if (clock.state == CostClock::State::Timed) {
        processTimed(inputPort, std::move(item));
    } else {
        try {
            process(inputPort, std::move(item));
        } catch (...) {
            failOnCurrentException("process");
        }
    }
    clock.state = outer;
    clock.inCall.store(outerCall, std::memory_order_relaxed);
}

void Operator::processTimed(int inputPort, Item&& item) {
    NodeContext* caller = startTiming();
    try {
        process(inputPort, std::move(item));
    } catch (...) {
        failOnCurrentException("process");
    }
    stopTiming(caller);
}

NodeContext* Operator::startTiming() {
    CostClock& clock = *node_->costClock;
    const TimeNs now = wallClockNs();
    NodeContext* caller = clock.current;
    if (caller) caller->timedNs += now - clock.mark;  // the caller's own time up to this call
    clock.current = node_;
    clock.mark = now;
    return caller;
}

void Operator::stopTiming(NodeContext* caller) {
    CostClock& clock = *node_->costClock;
    const TimeNs now = wallClockNs();
    node_->timedNs += now - clock.mark;
    ++node_->timedCalls;
    clock.current = caller;
    clock.mark = now;
}

void Operator::recordAtOutput() {
    // Outputs account for latency: emission (the moment the output consumes the item) - arrival,
    // and for the utility that latency has on this output's QoS graph.
    SinkStats& sink = *node_->sink;
    const TimeNs now = wallClockNs();
    if (currentArrivalNs_ > 0) {
        const TimeNs latency = now - currentArrivalNs_;
        sink.latency.record(latency);
        if (now - sink.recentStartNs >= 1'000'000'000) {
            sink.recent[1] = sink.recent[0];
            sink.recent[0].clear();
            sink.recentStartNs = now;
        }
        sink.recent[0].record(latency);
        sink.lastLatencyNs = latency;
        sink.utilitySum += sink.qos.utility(static_cast<double>(latency) / 1e6);
    }
    if (sink.firstItemWallNs == 0) sink.firstItemWallNs = now;
    sink.lastItemWallNs = now;
}

SourceStatus Operator::produce(std::int64_t budget) {
    NodeContext& node = *node_;
    if (node.failed || node.finished) return SourceStatus::finished();
    productionBudget_ = budget;
    ++node.calls;
    CostClock& clock = *node.costClock;
    const CostClock::State outer = clock.state;
    if (outer == CostClock::State::Idle) clock.state = openInvocation(clock);
    NodeContext* caller = clock.state == CostClock::State::Timed ? startTiming() : nullptr;
    const NodeContext* outerCall = clock.inCall.load(std::memory_order_relaxed);
    clock.inCall.store(&node, std::memory_order_relaxed);
    SourceStatus status;
    try {
        const NodeCallScope marked(node, "produce");
        status = onProduce();
    } catch (...) {
        fail("produce", currentExceptionMessage());
        status = SourceStatus::finished();
    }
    clock.inCall.store(outerCall, std::memory_order_relaxed);
    if (clock.state == CostClock::State::Timed) stopTiming(caller);
    clock.state = outer;
    if (node.failed) return SourceStatus::finished();
    if (status.state == SourceStatus::State::Finished && !node.finished) finish();
    return status;
}

void Operator::forceFinish() {
    if (node_->finished || node_->failed) return;
    for (auto& in : node_->inputs) in.progress = kEndOfTime;
    node_->minimumInputProgress = kEndOfTime;
    finish();
}

void Operator::applyParameter(std::string_view name, const ParamValue& value) {
    node_->params.set(std::string(name), value);
    try {
        onParameterChanged(name);
    } catch (...) {
        fail("parameterChanged", currentExceptionMessage());  // the SDK's name of the hook
    }
}

void Operator::deactivate() {
    if (!node_) return;
    try {
        onDeactivate();
    } catch (const OperatorStopFailure& e) {
        if (!node_->failed) {  // the first failure stays the node's
            node_->failed = true;
            node_->failure = e.what();
        }
    } catch (...) {
        node_->warnings.push_back(std::string("while stopping: ") + currentExceptionMessage());
    }
    node_ = nullptr;  // unbound: a second call (the engine's destructor after the runner's) does nothing
}

void Operator::process(int, Item&&) {
    throw OperatorError("this operator takes no input");
}

SourceStatus Operator::onProduce() {
    throw OperatorError("this operator is not a source");
}

void Operator::handleProgress(int inputPort, Item&& marker) {
    NodeContext& node = *node_;
    const TimeNs t = marker.progressTime();
    InputState& in = node.inputs[static_cast<std::size_t>(inputPort)];
    if (t <= in.progress) return;
    in.progress = t;
    TimeNs minimum = t;
    if (node.inputs.size() > 1) {
        for (const auto& input : node.inputs) minimum = std::min(minimum, input.progress);
    }
    if (minimum <= node.minimumInputProgress) return;
    node.minimumInputProgress = minimum;
    if (minimum == kEndOfTime) {
        finish();
        return;
    }
    TimeNs promised;
    // An output may write here (csv_sink): named, as its process call is, if it does not return.
    CostClock& clock = *node.costClock;
    const NodeContext* outerCall = clock.inCall.load(std::memory_order_relaxed);
    try {
        std::optional<NodeCallScope> marked;
        if (node.sink) {
            marked.emplace(node, "progress");
            clock.inCall.store(&node, std::memory_order_relaxed);
        }
        promised = onProgress(minimum);
    } catch (...) {
        if (node.sink) clock.inCall.store(outerCall, std::memory_order_relaxed);
        // Not "(in progress)", which read as "still going on".
        fail("the progress hook", currentExceptionMessage());
        return;
    }
    if (node.sink) clock.inCall.store(outerCall, std::memory_order_relaxed);
    forwardProgress(promised, &marker);
}

void Operator::finish() {
    NodeContext& node = *node_;
    if (node.finished) return;
    node.finished = true;
    const bool cutShort = std::any_of(node.inputs.begin(), node.inputs.end(), [](const InputState& in) { return in.cutShort; });
    // A sink fed a shortened stream must not present it as complete (replace a file with it).
    if (cutShort && node.isSink()) return;
    CostClock& clock = *node.costClock;
    const NodeContext* outerCall = clock.inCall.load(std::memory_order_relaxed);
    clock.inCall.store(&node, std::memory_order_relaxed);
    try {
        const NodeCallScope marked(node, "finish");
        onFinish();
    } catch (...) {
        clock.inCall.store(outerCall, std::memory_order_relaxed);
        fail("finish", currentExceptionMessage());
        return;
    }
    clock.inCall.store(outerCall, std::memory_order_relaxed);
    if (cutShort) markTargetsCutShort();
    forwardProgress(kEndOfTime);
}

void Operator::markTargetsCutShort() {
    for (OutputState& out : node_->outputs) {
        for (const Target& target : out.targets) target.node->inputs[static_cast<std::size_t>(target.port)].cutShort = true;
    }
}

void Operator::forwardProgress(TimeNs t, Item* reusableMarker) {
    NodeContext& node = *node_;
    if (t <= node.outputProgress) return;
    node.outputProgress = t;
    if (reusableMarker && node.outputs.size() == 1) [[likely]] {
        // Forward the marker that came in rather than building a new item on every hop.
        reusableMarker->setProgressTime(t);
        return node.route(0, std::move(*reusableMarker));
    }
    const int last = static_cast<int>(node.outputs.size()) - 1;
    for (int port = 0; port < last; ++port) node.route(port, Item::progress(t));
    if (last < 0) return;
    if (reusableMarker) {
        // Forward the marker that came in rather than building a new item on every hop.
        reusableMarker->setProgressTime(t);
        node.route(last, std::move(*reusableMarker));
    } else {
        node.route(last, Item::progress(t));
    }
}

namespace {

/// Whether `failure` (the exception being handled, if any) is one whose message names its own hook.
bool namesItsHook(const std::exception_ptr& failure) {
    if (!failure) return false;
    try {
        std::rethrow_exception(failure);
    } catch (const OperatorErrorInHook&) {
        return true;
    } catch (...) {
        return false;
    }
}

}  // namespace

void Operator::fail(const char* hook, const std::string& message) {
    NodeContext& node = *node_;
    if (node.failed) return;
    node.failed = true;
    node.failure = namesItsHook(std::current_exception()) ? message : message + " (in " + hook + ")";
    node.finished = true;
    if (node.engine) node.engine->nodeFailed(node);
    // Downstream must not wait forever for a disabled node: end its outputs, marked cut short.
    if (node.outputProgress < kEndOfTime) {
        markTargetsCutShort();
        node.outputProgress = kEndOfTime;
        for (int port = 0; port < static_cast<int>(node.outputs.size()); ++port) {
            node.route(port, Item::progress(kEndOfTime));
        }
    }
}

void Operator::failOnCurrentException(const char* hook) { fail(hook, currentExceptionMessage()); }

void Operator::emit(int outputPort, Item&& item) {
    if (item.arrivalNs() < currentArrivalNs_) item.setArrivalNs(currentArrivalNs_);
    if (outputPort == 0 && firstTargetNode_) [[likely]] {
        return node_->routeToOnlyTarget(outputs_[0], *firstTargetNode_, *firstTargetOperator_, std::move(item));
    }
    node_->routeOutput(outputs_[static_cast<std::size_t>(outputPort)], std::move(item));
}

void Operator::emitHeld(int outputPort, Item&& item) { node_->route(outputPort, std::move(item)); }

void Operator::emitProgress(TimeNs t) { forwardProgress(t); }

void Operator::warn(std::string message) {
    constexpr std::size_t kKeptWarnings = 100;  // a warning in a hot loop must not grow memory forever
    ++node_->warningCount;
    if (node_->warnings.size() < kKeptWarnings) node_->warnings.push_back(std::move(message));
}

void Operator::notice(std::string message) { node_->notices.push_back(std::move(message)); }

void Operator::countLate(int inputPort) { ++node_->inputs[static_cast<std::size_t>(inputPort)].lateItems; }

std::string_view Operator::nodeId() const { return node_->id; }
const ParamSet& Operator::params() const { return node_->params; }
int Operator::inputCount() const { return static_cast<int>(node_->inputs.size()); }
int Operator::outputCount() const { return static_cast<int>(node_->outputs.size()); }
const ResolvedPort& Operator::inputPort(int index) const { return node_->inputs[static_cast<std::size_t>(index)].port; }
const ResolvedPort& Operator::outputPort(int index) const { return node_->outputs[static_cast<std::size_t>(index)].port; }
bool Operator::inputConnected(int index) const { return node_->inputs[static_cast<std::size_t>(index)].connected; }
bool Operator::admissionOpen() const { return node_->engine->admissionOpen(*node_); }
bool Operator::runFollowsWallClock() const { return node_->engine->anySourceFollowsWallClock(); }
bool Operator::stopRequested() const { return node_->engine->stopRequested(); }

}  // namespace isochron
