// Timebases: the rate and phase of a sampled signal on a named clock.
//
// Every SigSeg refers to a Timebase. Sample index i of a stream has the time
//   zeroTimeNs + i * 1e9 / rateHz        (nanoseconds on the timebase's clock)
// Index <-> time is O(1). Timebases are interned: equal (rate, zero time, clock) triples share one
// immortal object, so SigSegs hold a plain pointer and compare timebases by address.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace isochron {

/// Nanoseconds on some clock. [any thread]
using TimeNs = std::int64_t;

/// "No more data will ever come": the progress value at the end of a stream.
inline constexpr TimeNs kEndOfTime = std::numeric_limits<TimeNs>::max();
/// "No progress yet": the progress value before a stream has said anything.
inline constexpr TimeNs kBeginningOfTime = std::numeric_limits<TimeNs>::min();

/// A named clock (e.g. "media", "wall", "device:hw:1"); interned, compared by address. [any thread]
class Clock {
public:
    /// The interned clock with this name. [any thread] [allocates on first use of a name]
    static const Clock& named(std::string_view name);
    /// Media time: 0 at the first sample of a file or generator.
    static const Clock& media();
    /// CLOCK_REALTIME, ns since the Unix epoch.
    static const Clock& wall();

    const std::string& name() const { return name_; }

    explicit Clock(std::string name) : name_(std::move(name)) {}

private:
    std::string name_;
};

/// Sampling rate and phase of a stream: maps sample indices to times on a clock. [immutable, any thread]
class Timebase {
public:
    /// The interned timebase for (rate, zero time, clock). rateHz must be finite and > 0.
    /// [any thread] [allocates on first use of a triple]
    static const Timebase& get(double rateHz, TimeNs zeroTimeNs = 0, const Clock& clock = Clock::media());

    double rateHz() const { return rateHz_; }
    /// Time of sample 0, in ns on clock().
    TimeNs zeroTimeNs() const { return zeroTimeNs_; }
    const Clock& clock() const { return *clock_; }

    /// Time of sample `index` (floor to whole ns). [no allocation]
    TimeNs timeOf(std::int64_t index) const {
        // Fast paths in 64 bits, for as long as the products fit: a rate dividing 1 GHz (1 kHz,
        // 16 kHz, 1 MHz, ...) multiplies by its whole period; another whole-number rate takes one
        // 64-bit division (indices below ~9.2e9: two days at 48 kHz). The rest go through the exact
        // 128-bit path, which also clamps.
        std::int64_t scaled = 0;
        std::int64_t time = 0;
        if (wholeNsPerSample_ > 0) {
            if (!__builtin_mul_overflow(index, wholeNsPerSample_, &scaled) && !__builtin_add_overflow(zeroTimeNs_, scaled, &time))
                [[likely]] return time;
        } else if (integerRate_ > 0 && !__builtin_mul_overflow(index, std::int64_t{1'000'000'000}, &scaled)) [[likely]] {
            const std::int64_t offset = scaled / integerRate_ - (scaled % integerRate_ < 0 ? 1 : 0);  // floor
            if (!__builtin_add_overflow(zeroTimeNs_, offset, &time)) [[likely]] return time;
        }
        return timeOfWide(index);
    }
    /// First sample index whose time is >= t. [no allocation]
    std::int64_t firstIndexAtOrAfter(TimeNs t) const;
    /// Duration of `count` samples in ns (rounded down). [no allocation]
    TimeNs durationOf(std::int64_t count) const;

    std::string describe() const;

    Timebase(double rateHz, TimeNs zeroTimeNs, const Clock& clock);

private:
    TimeNs timeOfWide(std::int64_t index) const;

    double rateHz_;
    TimeNs zeroTimeNs_;
    const Clock* clock_;
    std::int64_t integerRate_;  // rateHz_ when it is a whole number (exact integer arithmetic), else 0
    std::int64_t wholeNsPerSample_;  // 1e9 / integerRate_ when that is exact, else 0
};

}  // namespace isochron
