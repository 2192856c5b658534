// Item: what travels on an edge. One value type for every kind so queues and schedulers stay uniform.
//
//   Signal     a SigSeg of samples                         (range = the samples themselves)
//   Frame      a SigSeg of values describing a sample range (e.g. the FFT of a window)
//   Scalar     one number describing a sample range        (e.g. a window's detection score)
//   TimeRange  a sample range of interest                  (e.g. a detected event, for sync)
//   Event      a sample range with a label and attributes  (e.g. a bearing estimate)
//   Progress   punctuation: no data with time < t will come on this edge again
//   Custom     a sample range with an operator-defined payload (see custom_payload.h)
//
// Every item also carries the wall-clock arrival time of the newest data it derives from, so
// latency can be measured at the outputs (Aurora's QoS accounting).
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <utility>

#include "engine/items/custom_payload.h"
#include "engine/items/event_record.h"
#include "engine/items/sample_range.h"
#include "engine/signal/sigseg.h"

namespace isochron {

/// The kinds of item an edge can carry.
enum class ItemKind : std::uint8_t { Signal, Frame, Scalar, TimeRange, Event, Progress, Custom };

/// Name used in graph files and messages: "signal", "frame", "scalar", "time_range", "event", "progress",
/// "custom". [any thread] [no allocation]
std::string_view itemKindName(ItemKind kind);

/// A value on an edge; copying shares payloads (reference counts), moving is cheap.
/// [any thread] [no allocation: no member allocates; the payloads were allocated by their makers]
class Item {
public:
    /// An empty progress marker at the beginning of time.
    Item() noexcept : word_(kBeginningOfTime), kind_(ItemKind::Progress) {}
    // Copies and moves are inline: queues, buffers and item factories make them per item, and out of
    // line each was a call into the engine library.
    Item(const Item& other) noexcept
        : segment_(other.segment_), range_(other.range_), word_(other.word_), payload_(other.payload_),
          arrivalNs_(other.arrivalNs_), kind_(other.kind_) {
        retainPayload();
    }
    Item(Item&& other) noexcept
        : segment_(std::move(other.segment_)), range_(other.range_), word_(other.word_), payload_(other.payload_),
          arrivalNs_(other.arrivalNs_), kind_(other.kind_) {
        other.payload_ = nullptr;
    }
    Item& operator=(const Item& other) noexcept {
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
    Item& operator=(Item&& other) noexcept {
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
    ~Item() { releasePayload(); }

    template <class T> static Item signal(SigSeg<T> samples) {
        Item item(ItemKind::Signal);
        item.segment_ = std::move(samples);
        return item;
    }
    /// Values (e.g. spectrum bins) computed from the samples `covered`.
    template <class T> static Item frame(SigSeg<T> values, SampleRange covered) {
        Item item(ItemKind::Frame);
        item.segment_ = std::move(values);
        item.range_ = covered;
        return item;
    }
    static Item scalar(double value, SampleRange covered) {
        Item item(ItemKind::Scalar);
        item.word_ = std::bit_cast<std::int64_t>(value);
        item.range_ = covered;
        return item;
    }
    static Item timeRange(SampleRange range) {
        Item item(ItemKind::TimeRange);
        item.range_ = range;
        return item;
    }
    /// An event over `range`; takes over the caller's reference to `record`.
    static Item event(EventRecord* record, SampleRange range, double score) {
        Item item(ItemKind::Event);
        item.payload_ = record;
        item.range_ = range;
        item.word_ = std::bit_cast<std::int64_t>(score);
        return item;
    }
    /// A custom item over `range`; takes over the caller's reference to `payload`. [no allocation]
    static Item custom(CustomPayload* payload, SampleRange range, double value = 0.0) {
        Item item(ItemKind::Custom);
        item.payload_ = payload;
        item.range_ = range;
        item.word_ = std::bit_cast<std::int64_t>(value);
        return item;
    }
    static Item progress(TimeNs time) {
        Item item(ItemKind::Progress);
        item.word_ = time;
        return item;
    }

    ItemKind kind() const noexcept { return kind_; }
    bool isProgress() const noexcept { return kind_ == ItemKind::Progress; }
    /// Element type of a Signal or Frame, None otherwise.
    SampleType sampleType() const noexcept { return segment_.sampleType(); }

    /// The samples of a Signal or the values of a Frame, typed. Throws std::invalid_argument on a
    /// type mismatch (ports are typed, so this only fires on operator bugs).
    template <class T> SigSeg<T> signal() const { return SigSeg<T>::fromHandle(segment_); }
    /// Moves the samples out, leaving this item empty. [no reference count traffic]
    template <class T> SigSeg<T> takeSignal() { return SigSeg<T>::fromHandle(std::move(segment_)); }
    /// The untyped samples/values of a Signal or Frame (no reference count traffic).
    const SegmentHandle& segment() const noexcept { return segment_; }

    /// The samples an item is about: a Signal's own, the range a Frame/Scalar/Event describes.
    SampleRange range() const noexcept {
        if (kind_ == ItemKind::Signal) return SampleRange{segment_.timebase(), segment_.startIndex(), segment_.length()};
        return range_;
    }
    /// The time progress is compared with: the start of range() on its timebase's clock
    /// (kBeginningOfTime for an item without a timebase). [no allocation]
    TimeNs time() const noexcept {
        const SampleRange r = range();
        return r.timebase ? r.startTime() : kBeginningOfTime;
    }
    /// Scalar value, event score, or a custom item's value.
    double value() const noexcept { return std::bit_cast<double>(word_); }
    /// Progress time (Progress items only).
    TimeNs progressTime() const noexcept { return word_; }
    /// Move a progress marker to another time (Progress items only). [no allocation]
    void setProgressTime(TimeNs time) noexcept { word_ = time; }
    /// The record of an Event item (null for other kinds).
    const EventRecord* event() const noexcept {
        return kind_ == ItemKind::Event ? static_cast<const EventRecord*>(payload_) : nullptr;
    }
    /// The payload of a Custom item (null for other kinds). [no allocation]
    const CustomPayload* custom() const noexcept {
        return kind_ == ItemKind::Custom ? static_cast<const CustomPayload*>(payload_) : nullptr;
    }
    /// The payload of a Custom item as `T`, or null if it is another kind or type. [no allocation]
    template <class T> const T* customAs() const noexcept { return dynamic_cast<const T*>(custom()); }

    /// Samples carried (Signal length; 0 for other kinds), for throughput accounting.
    std::int64_t sampleCount() const noexcept { return kind_ == ItemKind::Signal ? segment_.length() : 0; }

    /// Wall-clock time (ns, Clock::wall) the newest data behind this item arrived; 0 if unknown.
    TimeNs arrivalNs() const noexcept { return arrivalNs_; }
    void setArrivalNs(TimeNs arrival) noexcept { arrivalNs_ = arrival; }

private:
    explicit Item(ItemKind kind) noexcept : kind_(kind) {}
    // Events and custom items keep their shared payload in one slot; the kind says which it is.
    void retainPayload() const noexcept {
        if (!payload_) return;
        if (kind_ == ItemKind::Custom) static_cast<CustomPayload*>(payload_)->addRef();
        else static_cast<EventRecord*>(payload_)->addRef();
    }
    void releasePayload() noexcept {
        if (!payload_) return;
        if (kind_ == ItemKind::Custom) static_cast<CustomPayload*>(payload_)->release();
        else static_cast<EventRecord*>(payload_)->release();
        payload_ = nullptr;
    }

    SegmentHandle segment_;
    SampleRange range_;
    std::int64_t word_ = 0;  // scalar value / event score (as double bits) or progress time
    void* payload_ = nullptr;  // EventRecord (Event) or CustomPayload (Custom)
    TimeNs arrivalNs_ = 0;
    ItemKind kind_;
};

}  // namespace isochron
