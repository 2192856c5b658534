// Plot decimation keeps each pixel column's extremes, in order, and about two points per column.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "ui/plots/decimation.h"

using namespace isochron::ui;

TEST_CASE("a long series becomes at most two points per column plus its neighbours", "[ui][plots]") {
    SeriesRing ring(200000);
    std::mt19937 random(3);
    std::normal_distribution<double> noise;
    for (int i = 0; i < 200000; ++i) ring.push(i * 0.001, noise(random));
    for (int columns : {1, 7, 300, 1920}) {
        const auto points = decimateMinMax(ring, 50.0, 150.0, columns);
        CAPTURE(columns);
        CHECK(points.size() <= 2 * static_cast<std::size_t>(columns) + 3);
        for (std::size_t i = 1; i < points.size(); ++i) CHECK(points[i].time >= points[i - 1].time);
        // Each column's minimum and maximum survive.
        const double width = 100.0 / columns;
        for (int c = 0; c < columns; c += std::max(1, columns / 13)) {
            double lo = 1e9, hi = -1e9;
            for (std::size_t i = 0; i < ring.size(); ++i) {
                const double t = ring.time(i);
                if (t < 50.0 + c * width || t >= 50.0 + (c + 1) * width) continue;
                lo = std::min(lo, ring.value(i));
                hi = std::max(hi, ring.value(i));
            }
            bool foundLo = false, foundHi = false;
            for (const PlotPoint& p : points) {
                foundLo |= p.value == lo;
                foundHi |= p.value == hi;
            }
            CHECK(foundLo);
            CHECK(foundHi);
        }
    }
}

TEST_CASE("short series pass through whole; the ring keeps the newest points", "[ui][plots]") {
    SeriesRing ring(8);
    for (int i = 0; i < 5; ++i) ring.push(i, i * i);
    auto points = decimateMinMax(ring, 0, 10, 100);
    REQUIRE(points.size() == 5);
    CHECK(points[4].value == 16);
    for (int i = 5; i < 20; ++i) ring.push(i, i * i);
    CHECK(ring.size() == 8);
    CHECK(ring.time(0) == 12);
    CHECK(ring.lastValue() == 19 * 19);
    CHECK(decimateMinMax(ring, 100, 200, 10).empty() == false);  // the last point before the span reaches its edge
    CHECK(decimateMinMax(SeriesRing(4), 0, 1, 10).empty());
}
