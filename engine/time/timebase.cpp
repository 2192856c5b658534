#include "engine/time/timebase.h"

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <tuple>

namespace isochron {
namespace {

std::mutex& internMutex() {
    static std::mutex mutex;
    return mutex;
}

// Floor division for signed 128-bit values (C++ division truncates toward zero).
__extension__ typedef __int128 Int128;

Int128 floorDiv(Int128 a, Int128 b) {
    Int128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

TimeNs clampToTime(Int128 v) {
    if (v > std::numeric_limits<TimeNs>::max()) return std::numeric_limits<TimeNs>::max();
    if (v < std::numeric_limits<TimeNs>::min()) return std::numeric_limits<TimeNs>::min();
    return static_cast<TimeNs>(v);
}

}  // namespace

const Clock& Clock::named(std::string_view name) {
    static std::map<std::string, std::unique_ptr<Clock>, std::less<>> clocks;
    std::lock_guard lock(internMutex());
    auto it = clocks.find(name);
    if (it == clocks.end()) {
        it = clocks.emplace(std::string(name), std::make_unique<Clock>(std::string(name))).first;
    }
    return *it->second;
}

const Clock& Clock::media() {
    static const Clock& clock = named("media");
    return clock;
}

const Clock& Clock::wall() {
    static const Clock& clock = named("wall");
    return clock;
}

Timebase::Timebase(double rateHz, TimeNs zeroTimeNs, const Clock& clock)
    : rateHz_(rateHz), zeroTimeNs_(zeroTimeNs), clock_(&clock), integerRate_(0), wholeNsPerSample_(0) {
    if (rateHz == std::floor(rateHz) && rateHz < 1e15) integerRate_ = static_cast<std::int64_t>(rateHz);
    if (integerRate_ > 0 && 1'000'000'000 % integerRate_ == 0) wholeNsPerSample_ = 1'000'000'000 / integerRate_;
}

const Timebase& Timebase::get(double rateHz, TimeNs zeroTimeNs, const Clock& clock) {
    if (!(rateHz > 0.0) || !std::isfinite(rateHz)) {
        throw std::invalid_argument("timebase rate must be a positive finite number of Hz");
    }
    static std::map<std::tuple<double, TimeNs, const Clock*>, std::unique_ptr<Timebase>> timebases;
    std::lock_guard lock(internMutex());
    auto key = std::make_tuple(rateHz, zeroTimeNs, &clock);
    auto it = timebases.find(key);
    if (it == timebases.end()) {
        it = timebases.emplace(key, std::make_unique<Timebase>(rateHz, zeroTimeNs, clock)).first;
    }
    return *it->second;
}

TimeNs Timebase::timeOfWide(std::int64_t index) const {
    if (integerRate_ > 0) {
        return clampToTime(static_cast<Int128>(zeroTimeNs_) +
                           floorDiv(static_cast<Int128>(index) * 1'000'000'000, integerRate_));
    }
    long double offset = std::floor(static_cast<long double>(index) * 1e9L / rateHz_);
    return zeroTimeNs_ + static_cast<TimeNs>(offset);
}

std::int64_t Timebase::firstIndexAtOrAfter(TimeNs t) const {
    if (t == kEndOfTime) return std::numeric_limits<std::int64_t>::max();
    if (t == kBeginningOfTime) return std::numeric_limits<std::int64_t>::min();
    Int128 delta = static_cast<Int128>(t) - zeroTimeNs_;
    if (integerRate_ > 0) {
        // smallest i with floor(i*1e9/rate) >= delta  <=>  i*1e9 >= delta*rate (ceil)
        Int128 numerator = delta * integerRate_;
        Int128 index = -floorDiv(-numerator, 1'000'000'000);
        return static_cast<std::int64_t>(index);
    }
    long double index = std::ceil(static_cast<long double>(delta) * rateHz_ / 1e9L);
    while (timeOf(static_cast<std::int64_t>(index) - 1) >= t) index -= 1;
    while (timeOf(static_cast<std::int64_t>(index)) < t) index += 1;
    return static_cast<std::int64_t>(index);
}

TimeNs Timebase::durationOf(std::int64_t count) const {
    if (integerRate_ > 0) {
        return clampToTime(floorDiv(static_cast<Int128>(count) * 1'000'000'000, integerRate_));
    }
    return static_cast<TimeNs>(std::floor(static_cast<long double>(count) * 1e9L / rateHz_));
}

std::string Timebase::describe() const {
    return std::to_string(rateHz_) + " Hz from " + std::to_string(zeroTimeNs_) + " ns on clock '" +
           clock_->name() + "'";
}

}  // namespace isochron
