#include "engine/items/item.h"

namespace isochron {

std::string_view itemKindName(ItemKind kind) {
    switch (kind) {
        case ItemKind::Signal: return "signal";
        case ItemKind::Frame: return "frame";
        case ItemKind::Scalar: return "scalar";
        case ItemKind::TimeRange: return "time_range";
        case ItemKind::Event: return "event";
        case ItemKind::Progress: return "progress";
        case ItemKind::Custom: return "custom";
    }
    return "unknown";
}

Item::Item(const Item& other) noexcept
    : segment_(other.segment_), range_(other.range_), word_(other.word_), payload_(other.payload_),
      arrivalNs_(other.arrivalNs_), kind_(other.kind_) {
    retainPayload();
}

Item::Item(Item&& other) noexcept
    : segment_(std::move(other.segment_)), range_(other.range_), word_(other.word_), payload_(other.payload_),
      arrivalNs_(other.arrivalNs_), kind_(other.kind_) {
    other.payload_ = nullptr;
}

Item& Item::operator=(const Item& other) noexcept {
    if (this != &other) {
        other.retainPayload();
        releasePayload();
        segment_ = other.segment_;
        range_ = other.range_;
        word_ = other.word_;
        payload_ = other.payload_;
        arrivalNs_ = other.arrivalNs_;
        kind_ = other.kind_;
    }
    return *this;
}

Item& Item::operator=(Item&& other) noexcept {
    if (this != &other) {
        releasePayload();
        segment_ = std::move(other.segment_);
        range_ = other.range_;
        word_ = other.word_;
        payload_ = other.payload_;
        other.payload_ = nullptr;
        arrivalNs_ = other.arrivalNs_;
        kind_ = other.kind_;
    }
    return *this;
}

TimeNs Item::time() const noexcept {
    const SampleRange r = range();
    return r.timebase ? r.startTime() : kBeginningOfTime;
}


}  // namespace isochron
