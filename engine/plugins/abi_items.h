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
    const isochron_item& view(const Item& item);
    /// Whether `item` is the struct the last view() returned. [no allocation]
    bool isView(const isochron_item& item) const { return &item == &item_; }

private:
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

}  // namespace isochron
