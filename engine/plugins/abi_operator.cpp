#include "engine/plugins/abi_operator.h"

#include <new>
#include <stdexcept>

#include "engine/memory/memory_pool.h"
#include "engine/operators/operator_error_in_hook.h"

namespace isochron {

/// A segment the plugin holds through a handle: made during a hook (freed when it returns) or
/// retained (freed on release). The handle is the address of `segment`. Pooled.
struct AbiOperator::SegmentSlot {
    SegmentHandle segment;
    SegmentSlot* next = nullptr;
    SegmentSlot* previous = nullptr;
    bool kept = false;
};

namespace {

template <class T> SegmentHandle allocateTyped(std::int64_t length, std::int64_t startIndex, const Timebase* timebase, void*& samples) {
    SigSeg<T> segment = SigSeg<T>::allocate(length, startIndex, timebase);
    samples = segment.writable().data();
    return segment;
}

}  // namespace

AbiOperator::AbiOperator(const isochron_operator_type& type, std::shared_ptr<const OperatorDescriptor> declared, std::string pluginFile)
    : type_(type), declared_(std::move(declared)), pluginFile_(std::move(pluginFile)) {
    setForward(&forwardHandedOver);
    installPluginCrashNote();
}

AbiOperator::~AbiOperator() {
    PluginCallScope scope(site_, "destroy");
    if (instance_ && instance_->destroy) instance_->destroy(instance_);
    while (hookSlots_) freeSlot(hookSlots_);
    while (keptSlots_) freeSlot(keptSlots_);
}

void AbiOperator::onActivate() {
    std::vector<ResolvedPort> inputs, outputs;
    std::vector<bool> connected;
    for (int i = 0; i < inputCount(); ++i) {
        inputs.push_back(inputPort(i));
        connected.push_back(inputConnected(i));
    }
    for (int i = 0; i < outputCount(); ++i) outputs.push_back(outputPort(i));
    describeNode(std::string(nodeId()), *declared_, inputs, connected, outputs);
    routedItems_ = 0;
    site_.text = "node '" + std::string(nodeId()) + "' (plugin " + pluginFile_ + ")";
    view_.reserve();
    changedName_.reserve(64);
    // The instance is made here, where the node is known, so a crash in the plugin's constructor
    // names the node. A constructor or activate that fails disables this node only, as in a sandbox:
    // the engine cannot disable a node while it starts the graph, so the failure is kept and raised
    // by the first hook the engine calls (the rest of the graph runs on).
    const char* hook = "create";
    startFailure_.reset();
    try {
        if (!instance_) {
            clearError();
            {
                PluginCallScope scope(site_, hook);
                instance_ = type_.create(&type_, host());
            }
            if (!instance_) throw OperatorError(takeError(hook));
        }
        if (!instance_->activate) return;
        hook = "activate";
        clearError();
        PluginCallScope scope(site_, hook);
        endHook(activateGrantingRoutes([&] { return instance_->activate(instance_); }), hook);
    } catch (const OperatorError& e) {
        routeOfInput_.assign(inputs.size(), -1);
        startFailure_ = std::string(e.what()) + " (in the " + hook + " hook)";  // as a sandboxed node says it
    }
}

void AbiOperator::failIfNotStarted() const {
    if (startFailure_) throw OperatorErrorInHook(*startFailure_);
}

void AbiOperator::process(int inputPort, Item&& item) {
    // A routed input's items never reach the plugin: handed over as a built-in pass-through's are.
    if (const int route = routeOfInput_[static_cast<std::size_t>(inputPort)]; route >= 0) {
        ++routedItems_;
        return Operator::emit(route, std::move(item));
    }
    return processInPlugin(inputPort, std::move(item));
}

void AbiOperator::processInPlugin(int inputPort, Item&& item) {
    failIfNotStarted();
    if (!instance_->process) throw OperatorError("its operator type takes no input (it has no process hook)");
    clearError();
    input_ = &item;
    inputView_ = &view_.view(item);
    fitsOfInput_ = alwaysFitsRow(static_cast<std::uint32_t>(inputPort));
    bool ok;
    {
        PluginCallScope scope(site_, "process");
        ok = instance_->process(instance_, static_cast<std::uint32_t>(inputPort), inputView_);
    }
    input_ = nullptr;
    if (!forwardPending_) return endHook(ok, "process");
    if (!ok) [[unlikely]] {
        sendPendingForward();  // it was sent before the hook failed
        endHookSlowly(false, "process");
    }
    endHook(true, "process");
    // The hand-over the plugin asked for, last and in tail position: the next node's hop replaces
    // this one's frame instead of nesting under the plugin's (see forwardHandedOver).
    const int port = forwardPort_;
    forwardPending_ = false;
    return Operator::emit(port, std::move(item));
}

SourceStatus AbiOperator::onProduce() {
    failIfNotStarted();
    if (!instance_->produce) throw OperatorError("its operator type is not a source (it has no produce hook)");
    std::uint32_t state = ISOCHRON_SOURCE_FINISHED;
    std::int64_t wakeAtNs = 0;
    clearError();
    {
        PluginCallScope scope(site_, "produce");
        endHook(instance_->produce(instance_, &state, &wakeAtNs), "produce");
    }
    if (state == ISOCHRON_SOURCE_PRODUCED) return SourceStatus::produced();
    if (state == ISOCHRON_SOURCE_WAITING) return SourceStatus::waitUntil(wakeAtNs);
    return SourceStatus::finished();
}

TimeNs AbiOperator::onProgress(TimeNs inputProgress) {
    failIfNotStarted();
    if (!instance_->progress) return inputProgress;
    std::int64_t promised = inputProgress;
    clearError();
    PluginCallScope scope(site_, "progress");
    endHook(instance_->progress(instance_, inputProgress, &promised), "progress");
    return promised;
}

void AbiOperator::onFinish() {
    failIfNotStarted();
    if (!instance_->finish) return;
    clearError();
    PluginCallScope scope(site_, "finish");
    endHook(instance_->finish(instance_), "finish");
}

void AbiOperator::onParameterChanged(std::string_view name) {
    if (startFailure_ || !instance_ || !instance_->parameter_changed) return;
    changedName_.assign(name);
    clearError();
    PluginCallScope scope(site_, "parameterChanged");
    endHook(instance_->parameter_changed(instance_, changedName_.c_str()), "parameterChanged");
}

void AbiOperator::onDeactivate() {
    // A node that did not start is not deactivated (it was destroyed without it before).
    if (startFailure_ || !instance_ || !instance_->deactivate) return;
    clearError();
    {
        PluginCallScope scope(site_, "deactivate");
        instance_->deactivate(instance_);
    }
    // deactivate returns nothing: an error it logged (the C++ layer logs what it threw) is its failure.
    if (errorLogged()) throw OperatorStopFailure(takeError("deactivate") + " (in deactivate)");
    endHook(true, "deactivate");
}

void AbiOperator::endHookSlowly(bool ok, const char* hook) {
    while (hookSlots_) freeSlot(hookSlots_);
    if (!ok) throw OperatorError(takeError(hook));
}

void AbiOperator::emitItem(std::uint32_t port, const isochron_item& item) {
    Item emitted = engineItemFromAbi(item, outputSpec(port));
    if (forwardPending_) sendPendingForward();
    Operator::emit(static_cast<int>(port), std::move(emitted));
}

void AbiOperator::forwardItem(std::uint32_t port, const isochron_item& item) {
    if (!input_ || !view_.isView(item)) throw std::invalid_argument("forward takes the item process() got, once (emit any other)");
    checkFits(input_->kind(), input_->sampleType(), outputSpec(port));
    Item handedOver = std::move(*input_);
    input_ = nullptr;
    Operator::emit(static_cast<int>(port), std::move(handedOver));
}

void AbiOperator::emitProgressNs(std::int64_t timeNs) {
    if (forwardPending_) sendPendingForward();
    Operator::emitProgress(timeNs);
}

bool AbiOperator::forwardHandedOver(const isochron_host* host, std::uint32_t port, const isochron_item* item) {
    auto& node = static_cast<AbiOperator&>(self(host));
    if (!node.input_ || item != node.inputView_ || port >= node.outputTotal() || !node.fitsOfInput_[port]) [[unlikely]] {
        return forward(host, port, item);
    }
    const Item& handedOver = *node.input_;
    if (handedOver.kind() == ItemKind::Signal) node.view_.handingOver(handedOver.segment());
    node.forwardPort_ = static_cast<int>(port);
    node.forwardPending_ = true;
    node.pendingItem_ = node.input_;
    node.input_ = nullptr;
    return true;
}

void AbiOperator::sendPendingForward() {
    forwardPending_ = false;
    Operator::emit(forwardPort_, std::move(*pendingItem_));
}

AbiOperator::SegmentSlot* AbiOperator::newSlot(SegmentHandle segment, bool kept) {
    auto* slot = new (MemoryPool::instance().allocate(sizeof(SegmentSlot))) SegmentSlot{std::move(segment)};
    slot->kept = kept;
    SegmentSlot*& list = kept ? keptSlots_ : hookSlots_;
    slot->next = list;
    if (list) list->previous = slot;
    list = slot;
    return slot;
}

void AbiOperator::freeSlot(SegmentSlot* slot) {
    SegmentSlot*& list = slot->kept ? keptSlots_ : hookSlots_;
    if (slot->previous) slot->previous->next = slot->next;
    else list = slot->next;
    if (slot->next) slot->next->previous = slot->previous;
    slot->~SegmentSlot();
    MemoryPool::instance().release(slot);
}

void AbiOperator::allocateSegment(std::uint32_t sampleType, std::int64_t length, std::int64_t startIndex, const isochron_timebase* timebase,
                                  isochron_segment& segment) {
    const Timebase* engineBase = timebase ? &engineTimebase(*timebase) : nullptr;
    void* samples = nullptr;
    SegmentHandle allocated;
    switch (*engineSampleType(sampleType)) {
        case SampleType::Float32: allocated = allocateTyped<float>(length, startIndex, engineBase, samples); break;
        case SampleType::Float64: allocated = allocateTyped<double>(length, startIndex, engineBase, samples); break;
        case SampleType::Int16: allocated = allocateTyped<std::int16_t>(length, startIndex, engineBase, samples); break;
        case SampleType::ComplexFloat32: allocated = allocateTyped<std::complex<float>>(length, startIndex, engineBase, samples); break;
        case SampleType::None: break;
    }
    SegmentSlot* slot = newSlot(std::move(allocated), false);
    segment = {sampleType, startIndex, length, timebase, samples, &slot->segment};
}

void AbiOperator::subsegment(const isochron_segment& segment, std::int64_t startIndex, std::int64_t length, isochron_segment& part) {
    const auto& whole = *static_cast<const SegmentHandle*>(segment.handle);
    SegmentSlot* slot = newSlot(shareSubsegment(whole, startIndex, length), false);
    const std::size_t offset = static_cast<std::size_t>(startIndex - segment.start_index) * sampleSize(whole.sampleType());
    part = {segment.sample_type, startIndex, length, segment.timebase, static_cast<std::byte*>(segment.samples) + offset, &slot->segment};
}

void AbiOperator::retainSegment(const isochron_segment& segment, isochron_segment& kept) {
    SegmentSlot* slot = newSlot(*static_cast<const SegmentHandle*>(segment.handle), true);
    kept = segment;
    kept.handle = &slot->segment;
}

void AbiOperator::releaseSegment(const isochron_segment& kept) {
    for (SegmentSlot* slot = keptSlots_; slot; slot = slot->next) {
        if (&slot->segment == kept.handle) return freeSlot(slot);
    }
    warn("segment_release: the segment was not retained (or was released already); ignored");
}

}  // namespace isochron
