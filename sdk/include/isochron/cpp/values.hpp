// The C++ layer's plain values: errors, time, timebases, sample ranges and sample types.
// Header-only and compiled into the plugin; nothing here crosses the ABI but the C structs it wraps.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "isochron/isochron.h"

namespace isochron::sdk {

/// Nanoseconds on a timebase's clock.
using TimeNs = std::int64_t;
/// "No more data will ever come": the progress at the end of a stream.
inline constexpr TimeNs kEndOfTime = std::numeric_limits<TimeNs>::max();

/// What an operator throws to fail: the node is disabled with this message, the graph runs on.
/// (Any exception does the same; this one says so.) [value type]
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// An interned timebase (rate, zero time, clock), compared by address; empty until assigned.
/// [value type, any thread, no allocation]
class Timebase {
public:
    Timebase() = default;
    explicit Timebase(const isochron_timebase* raw) : raw_(raw) {}

    double rateHz() const { return raw_->rate_hz; }
    /// Time of sample 0 on clock(), in ns.
    TimeNs zeroTimeNs() const { return raw_->zero_time_ns; }
    const char* clock() const { return raw_->clock; }
    /// Time of sample `index` (floor to whole ns), exactly as the engine computes it.
    TimeNs timeOf(std::int64_t index) const { return raw_->time_of(raw_, index); }
    /// The first sample index whose time is >= t.
    std::int64_t firstIndexAtOrAfter(TimeNs t) const { return raw_->first_index_at_or_after(raw_, t); }

    explicit operator bool() const { return raw_ != nullptr; }
    bool operator==(const Timebase&) const = default;
    const isochron_timebase* raw() const { return raw_; }

private:
    const isochron_timebase* raw_ = nullptr;
};

/// Samples [start, start + length) of the stream on `timebase`. [value type]
struct Range {
    Timebase timebase;
    std::int64_t start = 0;
    std::int64_t length = 0;

    std::int64_t end() const { return start + length; }
    TimeNs startTime() const { return timebase.timeOf(start); }
    TimeNs endTime() const { return timebase.timeOf(end()); }
    bool operator==(const Range&) const = default;

    isochron_range raw() const { return {timebase.raw(), start, length}; }
    static Range of(const isochron_range& raw) { return {Timebase(raw.timebase), raw.start, raw.length}; }
};

/// The ABI's sample type for a C++ element type: float, double, std::int16_t, std::complex<float>.
template <class T> struct SampleTypeOf;
template <> struct SampleTypeOf<float> { static constexpr isochron_sample_type value = ISOCHRON_SAMPLE_F32; };
template <> struct SampleTypeOf<double> { static constexpr isochron_sample_type value = ISOCHRON_SAMPLE_F64; };
template <> struct SampleTypeOf<std::int16_t> { static constexpr isochron_sample_type value = ISOCHRON_SAMPLE_I16; };
template <> struct SampleTypeOf<std::complex<float>> { static constexpr isochron_sample_type value = ISOCHRON_SAMPLE_C32; };

/// "f32", "f64", "i16", "c32" or "none", as port types spell them. [no allocation]
inline const char* sampleTypeName(std::uint32_t type) {
    switch (type) {
        case ISOCHRON_SAMPLE_F32: return "f32";
        case ISOCHRON_SAMPLE_F64: return "f64";
        case ISOCHRON_SAMPLE_I16: return "i16";
        case ISOCHRON_SAMPLE_C32: return "c32";
        default: return "none";
    }
}

}  // namespace isochron::sdk
