// The archive timeline's axis: the tick step grows with the span shown and never crowds more ticks
// than asked for, and labels speak the unit of the step (hours on a day, seconds on a few seconds).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "ui/archive/time_axis.h"

using isochron::ui::axisLabel;
using isochron::ui::axisTicks;
using isochron::ui::axisTickStep;

TEST_CASE("The tick step is the smallest round step that keeps the ticks within the count", "[ui][archive]") {
    const double round[] = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30,
                            60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
    for (double span : {0.003, 0.04, 0.7, 3.0, 10.0, 47.0, 200.0, 3000.0, 5400.0, 86400.0, 3 * 86400.0}) {
        for (int maxTicks : {2, 5, 11, 17}) {
            const double step = axisTickStep(span, maxTicks);
            INFO("span " << span << " max " << maxTicks << " step " << step);
            CHECK(span / step <= maxTicks - 1 + 1e-9);  // at most maxTicks ticks on the span
            // The next smaller round step would put more than maxTicks on it.
            const double* it = std::find(std::begin(round), std::end(round), step);
            if (it != std::end(round) && it != std::begin(round)) CHECK(span / *(it - 1) > maxTicks - 1);
            // Every step is one of the round ones, or whole days.
            CHECK((it != std::end(round) || std::fmod(step, 86400) == 0));
        }
    }
}

TEST_CASE("Axis labels speak the step's unit", "[ui][archive]") {
    // A day: hours, not minutes (the try-out's 24-hour archive read "1440.0 min").
    const auto day = axisTicks(0, 86400, 10);
    REQUIRE(day.size() >= 5);
    CHECK(day[1].label == "3 h");
    CHECK(day.back().label == "24 h");
    // An hour: minutes, then hours and minutes.
    CHECK(axisLabel(45 * 60, 300) == "45 min");
    CHECK(axisLabel(2 * 3600 + 15 * 60, 900) == "2 h 15 min");
    // Seconds, as a clock past a minute, with the decimals a fine step needs.
    CHECK(axisLabel(12, 2) == "12 s");
    CHECK(axisLabel(3600 + 2 * 60 + 5, 5) == "1:02:05");
    CHECK(axisLabel(65, 1) == "1:05");
    CHECK(axisLabel(12.35, 0.05) == "12.35 s");
    CHECK(axisLabel(3725.5, 0.5) == "1:02:05.5");
    CHECK(axisLabel(0.0299999999, 0.01) == "0.03 s");  // rounded to the step, not cut
}

TEST_CASE("Ticks fall on multiples of the step inside the interval shown", "[ui][archive]") {
    // 10 s somewhere in a day, as after zooming in: seconds, not hours.
    const auto ticks = axisTicks(43203.3, 43213.3, 6);
    REQUIRE(ticks.size() == 5);  // step 2 s: 43204 … 43212
    for (std::size_t i = 0; i < ticks.size(); ++i) CHECK(ticks[i].seconds == Approx(43204 + 2.0 * static_cast<double>(i)));
    CHECK(ticks.front().label == "12:00:04");
    CHECK(axisTicks(5, 5, 6).empty());
    CHECK(axisTicks(0, 1, 6).front().label == "0.0 s");
}
