// AbiOperator: a plugin's operator hosted in-process. It is an engine Operator whose hooks call the
// plugin's C hooks (isochron_operator), handing items over as views without copying samples, and
// an AbiNode whose host services are the engine's own: emit routes at once, segments are pooled
// SigSegs shared by reference. A hook that fails becomes an OperatorError, so the engine disables
// the node and names it; a crash is named by the crash note (plugin_crash_note.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/plugins/abi_items.h"
#include "engine/plugins/abi_node.h"
#include "engine/plugins/plugin_crash_note.h"
#include "engine/plugins/routed_items.h"
#include "engine/runtime/published_count.h"

namespace isochron {

/// One node's instance of a plugin operator type, run in this process. [engine thread]
class AbiOperator final : public Operator, public RoutedItems, private AbiNode {
public:
    /// An operator whose plugin instance is created when the node activates (so a failing
    /// constructor is named with its node, and disables only that node). `declared` is the type as
    /// the engine knows it (for parameter kinds); `pluginFile` names the plugin in messages.
    /// [setup thread] [may allocate]
    AbiOperator(const isochron_operator_type& type, std::shared_ptr<const OperatorDescriptor> declared, std::string pluginFile);
    /// Destroys the plugin's instance and frees every segment it kept.
    ~AbiOperator() override;
    std::uint64_t routedItems() const override { return routedItems_; }

protected:
    void onActivate() override;
    void process(int inputPort, Item&& item) override;
    SourceStatus onProduce() override;
    TimeNs onProgress(TimeNs inputProgress) override;
    void onFinish() override;
    void onParameterChanged(std::string_view name) override;
    void onDeactivate() override;

private:
    struct SegmentSlot;
    /// process() for an item the plugin's hook takes; out of line, so that a routed item's hop
    /// saves no registers and keeps no frame.
    [[gnu::noinline]] void processInPlugin(int inputPort, Item&& item);
    /// Fails the hook with the plugin's error unless `ok`; frees the hook's unkept segments.
    void endHook(bool ok, const char* hook) {
        if (hookSlots_ || !ok) [[unlikely]] endHookSlowly(ok, hook);
    }
    void endHookSlowly(bool ok, const char* hook);
    /// Raises the constructor's or activate's failure, which disables the node. [engine thread]
    void failIfNotStarted() const;

    // AbiNode
    const ParamSet& currentParams() const override { return params(); }
    std::int64_t inputProgressNs(std::uint32_t port) const override { return Operator::inputProgress(static_cast<int>(port)); }
    void emitItem(std::uint32_t port, const isochron_item& item) override;
    void forwardItem(std::uint32_t port, const isochron_item& item) override;
    void emitProgressNs(std::int64_t timeNs) override;
    void allocateSegment(std::uint32_t sampleType, std::int64_t length, std::int64_t startIndex, const isochron_timebase* timebase,
                         isochron_segment& segment) override;
    void subsegment(const isochron_segment& segment, std::int64_t startIndex, std::int64_t length, isochron_segment& part) override;
    void retainSegment(const isochron_segment& segment, isochron_segment& kept) override;
    void releaseSegment(const isochron_segment& kept) override;
    std::int64_t sourceBudget() const override { return std::min(productionBudget(), kPluginMostBlocksPerProduce); }
    bool sourceAdmitted() const override { return admissionOpen(); }
    void warning(std::string message) override { warn(std::move(message)); }

    /// The host table's forward: when the current input's items always fit the output (decided at
    /// activation) the item is only marked for handing over, and goes when process() returns, or
    /// before anything else the hook sends (emit, progress), so the order of outputs is the one
    /// the plugin chose. Sent last, it leaves process() in tail position: the next node's hop does
    /// not nest under the plugin's frames. Anything else takes AbiNode's checked forward, at once.
    static bool forwardHandedOver(const isochron_host* host, std::uint32_t port, const isochron_item* item);
    /// Sends the item forwardHandedOver marked. [engine thread]
    void sendPendingForward();

    SegmentSlot* newSlot(SegmentHandle segment, bool kept);
    void freeSlot(SegmentSlot* slot);

    const isochron_operator_type& type_;
    std::shared_ptr<const OperatorDescriptor> declared_;
    std::string pluginFile_;
    PluginCallSite site_;
    const isochron_operator* instance_ = nullptr;
    AbiItemView view_;
    Item* input_ = nullptr;  // the item being processed, which forward hands over
    Item* pendingItem_ = nullptr;  // the input forwardHandedOver marked, while forwardPending_
    int forwardPort_ = 0;          // and the output it goes to
    bool forwardPending_ = false;
    const isochron_item* inputView_ = nullptr;  // the view of it the plugin got
    const std::uint8_t* fitsOfInput_ = nullptr;  // alwaysFitsRow of the input being processed
    PublishedCount routedItems_;  // read by the telemetry watcher thread too
    std::optional<std::string> startFailure_;  // why the plugin's constructor or activate failed
    std::string changedName_;     // a live parameter's name, NUL-terminated for the plugin
    SegmentSlot* hookSlots_ = nullptr;  // segments made during the current hook, freed when it returns
    SegmentSlot* keptSlots_ = nullptr;  // segments the plugin retained
};

}  // namespace isochron
