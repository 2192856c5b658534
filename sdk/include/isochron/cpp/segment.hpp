// Segment<T>: a typed view of an isochron_segment (a signal's samples or a frame's values).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "isochron/cpp/values.hpp"

namespace isochron::sdk {

/// Samples [startIndex, startIndex + length) of a stream, contiguous. A segment the host hands in
/// is valid until the hook returns (Operator::retain keeps it longer); one from Operator::allocate
/// is writable until it is emitted. Copying copies the view, not the samples. [value type]
template <class T>
class Segment {
public:
    static constexpr isochron_sample_type kType = SampleTypeOf<T>::value;

    Segment() = default;
    /// A typed view of `raw`; throws Error when it holds another sample type.
    explicit Segment(const isochron_segment& raw) : raw_(raw) {
        if (raw.sample_type != kType) {
            throw Error(std::string("the segment holds ") + sampleTypeName(raw.sample_type) + " samples, not " + sampleTypeName(kType));
        }
    }

    std::int64_t startIndex() const { return raw_.start_index; }
    std::int64_t length() const { return raw_.length; }
    /// One past the last sample's index.
    std::int64_t endIndex() const { return raw_.start_index + raw_.length; }
    bool empty() const { return raw_.length == 0; }
    Timebase timebase() const { return Timebase(raw_.timebase); }
    /// The samples' range on their timebase.
    Range range() const { return {timebase(), raw_.start_index, raw_.length}; }
    /// Time of the first sample and one past the last.
    TimeNs startTime() const { return timebase().timeOf(startIndex()); }
    TimeNs endTime() const { return timebase().timeOf(endIndex()); }

    /// The samples. [no allocation]
    std::span<const T> samples() const { return {static_cast<const T*>(raw_.samples), static_cast<std::size_t>(raw_.length)}; }
    /// The samples to fill: only for a segment from Operator::allocate, before it is emitted.
    std::span<T> writable() { return {static_cast<T*>(raw_.samples), static_cast<std::size_t>(raw_.length)}; }
    const T* begin() const { return samples().data(); }
    const T* end() const { return samples().data() + samples().size(); }
    T operator[](std::int64_t i) const { return samples()[static_cast<std::size_t>(i)]; }

    const isochron_segment& raw() const { return raw_; }

private:
    isochron_segment raw_{};
};

}  // namespace isochron::sdk
