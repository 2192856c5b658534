// Items across the C ABI: engine Items as isochron_item views for a plugin's hooks, and what a
// plugin emits (an isochron_item) as an engine Item for an output port.
#pragma once

#include <string>
#include <vector>

#include "engine/items/item.h"
#include "engine/operators/descriptor.h"
#include "engine/plugins/abi_values.h"
#include "isochron/isochron.h"

namespace isochron {

/// Makes the isochron_item a plugin sees for an engine Item; the view is valid until the next
/// view() and while the item lives. A signal's samples are handed over in place (a segment of
/// several pieces is made contiguous once, pooled); its handle is the item's SegmentHandle.
/// [engine thread] [no allocation after reserve(), except a foreign custom payload's long texts]
class AbiItemView {
public:
    /// Room for the fields of any event or custom item. [may allocate]
    void reserve();
    /// The view of `item` (not a progress marker). [no allocation]
    const isochron_item& view(const Item& item) {
        const HandedOver& last = handedOver;
        if (item.kind() == ItemKind::Signal && last.matches(item.segment())) [[likely]] {
            // The signal a plugin node just handed over on this thread (a chain of plugin nodes):
            // its view is known, without walking the segment's pieces again.
            segment_ = {last.sampleType, last.startIndex, last.length, last.timebase, last.samples, &item.segment()};
            item_ = {ISOCHRON_ITEM_SIGNAL, {last.timebase, last.startIndex, last.length}, 0.0, &segment_, nullptr};
            return item_;
        }
        return viewSlowly(item);
    }
    /// Whether `item` is the struct the last view() returned. [no allocation]
    bool isView(const isochron_item& item) const { return &item == &item_; }
    /// The item last viewed, a signal, is being handed over as it is to the next node: remember its
    /// view for that node's view() on this thread. [no allocation]
    void handingOver(const SegmentHandle& segment) const {
        handedOver = {segment.storageIdentity(), segment.startIndex(), segment.length(), segment.timebase(), segment_.sample_type,
                      segment_.timebase, segment_.samples};
    }

private:
    // The view of the signal handed over last on this thread. The storage identity (unique to one
    // list's samples while they are unchanged: SegmentList::identity) with the range names the same
    // samples wherever the item went since, so the samples' address is still right.
    struct HandedOver {
        std::uint64_t identity = 0;  // 0: none (no list has identity 0)
        std::int64_t startIndex = 0;
        std::int64_t length = 0;
        const Timebase* engineTimebase = nullptr;
        std::uint32_t sampleType = ISOCHRON_SAMPLE_NONE;
        const isochron_timebase* timebase = nullptr;
        void* samples = nullptr;
        bool matches(const SegmentHandle& segment) const {
            return identity != 0 && segment.storageIdentity() == identity && segment.startIndex() == startIndex && segment.length() == length &&
                   segment.timebase() == engineTimebase;
        }
    };
    static constinit __attribute__((tls_model("initial-exec"))) thread_local HandedOver handedOver;

    const isochron_item& viewSlowly(const Item& item);
    void viewSamples(const SegmentHandle& segment);
    void viewEvent(const EventRecord& record);
    void viewCustom(const CustomPayload& payload);

    isochron_item item_{};
    isochron_segment segment_{};
    isochron_record record_{};
    std::vector<isochron_field> fields_;
    std::vector<std::string> texts_;  // a foreign payload's names and texts, valid during the call
    AbiTimebaseCache timebases_;
};

/// The engine Item for `item` as emitted on output `port`: a segment with a handle (a
/// `const SegmentHandle*`) is shared, one without is copied into pooled memory; records are copied.
/// Throws std::invalid_argument saying what does not fit the port. [engine thread] [pooled]
Item engineItemFromAbi(const isochron_item& item, const ResolvedPort& port);

/// Samples [startIndex, startIndex + length) of `whole`, sharing its storage; throws
/// std::out_of_range outside it. [no allocation]
SegmentHandle shareSubsegment(const SegmentHandle& whole, std::int64_t startIndex, std::int64_t length);

/// Whether an engine item of kind `kind` with samples of `sampleType` fits output `port`; throws
/// std::invalid_argument saying why not. [no allocation unless it throws]
void checkFits(ItemKind kind, SampleType sampleType, const ResolvedPort& port);

/// For each input and output, whether every item the input can carry fits the output (its type
/// alone decides it), as [input * outputs.size() + output]: where a forward needs no check per
/// item, and where a route may be granted (isochron/ext/routes.h). [setup thread] [may allocate]
std::vector<std::uint8_t> alwaysFitsTable(const std::vector<ResolvedPort>& inputs, const std::vector<ResolvedPort>& outputs);

}  // namespace isochron
