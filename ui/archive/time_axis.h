// The archive timeline's time axis: ticks at a round step for the span shown, labelled in the unit that
// step calls for (hours on a day, minutes on an hour, seconds and their fractions below), so the labels
// stay readable as the strip zooms from a whole archive down to milliseconds. No Qt.
#pragma once

#include <string>
#include <vector>

namespace isochron::ui {

/// One labelled tick. [value type]
struct AxisTick {
    double seconds = 0;  ///< from the stream's sample 0
    std::string label;
};

/// The smallest round step (1, 2, 5 × 10^k s below a second; 1, 2, 5, 10, 15, 30 s; the same in
/// minutes; 1, 2, 3, 6, 12 h; whole days) that puts at most `maxTicks` (>= 2) ticks on `span` seconds.
/// [any thread]
double axisTickStep(double span, int maxTicks);

/// `seconds` as a tick of `step` reads: "6 h" for hour steps, "45 min" or "2 h 15 min" for minute
/// steps, "12 s" or "1:02:05" for second steps, "12.35 s" or "1:02:05.35" below a second. [any thread]
std::string axisLabel(double seconds, double step);

/// The ticks at multiples of axisTickStep(to - from, maxTicks) inside [from, to]. [any thread]
std::vector<AxisTick> axisTicks(double from, double to, int maxTicks);

}  // namespace isochron::ui
