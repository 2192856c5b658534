#include "ui/archive/time_axis.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace isochron::ui {
namespace {

constexpr double kMinute = 60, kHour = 3600, kDay = 86400;

// Round steps of a second and above, in seconds.
constexpr std::array kClockSteps{1.0,         2.0,         5.0,          10.0,         15.0,        30.0,
                                 kMinute,     2 * kMinute, 5 * kMinute,  10 * kMinute, 15 * kMinute, 30 * kMinute,
                                 kHour,       2 * kHour,   3 * kHour,    6 * kHour,    12 * kHour,  kDay};

std::string format(const char* pattern, auto... values) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, values...);
    return text;
}

}  // namespace

double axisTickStep(double span, int maxTicks) {
    const double intervals = std::max(1, maxTicks - 1);
    const double least = std::max(span, 1e-9) / intervals;  // a step at least this wide fits
    if (least <= 1) {
        const double decade = std::pow(10.0, std::floor(std::log10(least)));
        for (double m : {1.0, 2.0, 5.0, 10.0}) {
            if (m * decade >= least * (1 - 1e-9)) return m * decade;
        }
    }
    for (double step : kClockSteps) {
        if (step >= least * (1 - 1e-9)) return step;
    }
    return std::ceil(least / kDay) * kDay;
}

std::string axisLabel(double seconds, double step) {
    const char* sign = seconds < 0 ? "-" : "";
    const double t = std::abs(seconds);
    if (step >= kHour) return format("%s%lld h", sign, static_cast<long long>(std::llround(t / kHour)));
    if (step >= kMinute) {
        const long long minutes = std::llround(t / kMinute);
        if (minutes < 60) return format("%s%lld min", sign, minutes);
        return format("%s%lld h %02lld min", sign, minutes / 60, minutes % 60);
    }
    // Seconds with as many decimals as the step needs (0.5 → 1, 0.05 → 2).
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    const double scale = std::pow(10.0, decimals);
    const auto units = static_cast<std::int64_t>(std::llround(t * scale));  // in 10^-decimals s
    const auto whole = static_cast<long long>(units / static_cast<std::int64_t>(scale));
    const auto fraction = static_cast<long long>(units % static_cast<std::int64_t>(scale));
    std::string fractionText;
    if (decimals > 0) {
        fractionText = std::to_string(fraction);
        while (fractionText.size() < static_cast<std::size_t>(decimals)) fractionText.insert(fractionText.begin(), '0');
        fractionText.insert(fractionText.begin(), '.');
    }
    if (whole < 60) return format("%s%lld", sign, whole) + fractionText + " s";
    if (whole < 3600) return format("%s%lld:%02lld", sign, whole / 60, whole % 60) + fractionText;
    return format("%s%lld:%02lld:%02lld", sign, whole / 3600, whole / 60 % 60, whole % 60) + fractionText;
}

std::vector<AxisTick> axisTicks(double from, double to, int maxTicks) {
    std::vector<AxisTick> ticks;
    if (!(to > from)) return ticks;
    const double step = axisTickStep(to - from, maxTicks);
    const double tolerance = step * 1e-6;
    for (auto k = static_cast<long long>(std::ceil((from - tolerance) / step)); k * step <= to + tolerance; ++k) {
        const double t = static_cast<double>(k) * step;
        ticks.push_back({t, axisLabel(t, step)});
    }
    return ticks;
}

}  // namespace isochron::ui
