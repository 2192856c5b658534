// The level meter's readings against closed forms: a sine's RMS and peak in dBFS over a matrix of
// amplitudes, rates and update sizes, and the held peak's hold and fall in stream time.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "ui/plots/level_ballistics.h"

using namespace isochron::ui;

namespace {

/// `count` samples of a sine of `amplitude` with `periodSamples` samples per period (a whole number,
/// so some sample lands on each crest).
std::vector<float> sine(std::size_t count, double amplitude, int periodSamples) {
    std::vector<float> samples(count);
    for (std::size_t i = 0; i < count; ++i) {
        samples[i] = static_cast<float>(amplitude * std::sin(2 * std::numbers::pi * static_cast<double>(i % static_cast<std::size_t>(periodSamples)) / periodSamples));
    }
    return samples;
}

}  // namespace

TEST_CASE("a sine reads 20 log10(A) peak and 20 log10(A / sqrt 2) RMS in dBFS", "[ui][probe][level]") {
    for (double amplitude : {1.0, 0.5, 0.01}) {
        for (double rate : {8000.0, 48000.0}) {
            for (std::size_t fresh : {std::size_t{1} << 8, std::size_t{2400}}) {
                INFO("amplitude " << amplitude << ", rate " << rate << ", fresh " << fresh);
                const std::vector<float> window = sine(4800, amplitude, 48);  // 100 whole periods
                LevelBallistics meter;
                meter.update(window, fresh, fresh, rate);
                CHECK(meter.rmsDecibels() == Approx(20 * std::log10(amplitude / std::sqrt(2.0))).margin(1e-4));
                CHECK(meter.peakDecibels() == Approx(20 * std::log10(amplitude)).margin(1e-4));
                CHECK(meter.heldDecibels() == meter.peakDecibels());
            }
        }
    }
    LevelBallistics meter;
    const std::vector<float> silence(1000, 0.f);
    meter.update(silence, 1000, 1000, 48000);
    CHECK(meter.rmsDecibels() == LevelBallistics::kFloorDecibels);
    CHECK(meter.peakDecibels() == LevelBallistics::kFloorDecibels);
}

TEST_CASE("the peak is over the fresh samples only", "[ui][probe][level]") {
    std::vector<float> window(1000, 0.01f);
    window[100] = 0.9f;  // loud, but read at the last update already
    LevelBallistics meter(0, 20);
    meter.update(window, 500, 500, 1000);
    CHECK(meter.peakDecibels() == Approx(-40).margin(1e-4));
    meter.update(window, 901, 901, 1000);
    CHECK(meter.peakDecibels() == Approx(20 * std::log10(0.9)).margin(1e-4));
}

TEST_CASE("a held peak stays for the hold time of stream, then falls at its rate", "[ui][probe][level]") {
    const double rate = 1000;
    for (std::uint64_t step : {10u, 33u, 250u}) {  // samples per update: the outcome must not depend on it
        INFO("step " << step);
        LevelBallistics meter(2, 20);
        const std::vector<float> loud(step, 1.f), quiet(step, 0.01f);  // 0 and −40 dBFS
        meter.update(loud, step, step, rate);
        REQUIRE(meter.heldDecibels() == Approx(0).margin(1e-9));
        std::uint64_t elapsed = 0;
        auto runQuiet = [&](std::uint64_t until) {
            for (; elapsed + step <= until; elapsed += step) meter.update(quiet, step, step, rate);
        };
        runQuiet(1750);  // 1.75 s (or less) of quiet: still held
        CHECK(meter.heldDecibels() == Approx(0).margin(1e-9));
        CHECK(meter.peakDecibels() == Approx(-40).margin(1e-4));
        runQuiet(3000);  // up to 3 s: held 2 s, then 20 dB/s for the rest
        const double seconds = static_cast<double>(elapsed) / rate;
        CHECK(meter.heldDecibels() == Approx(-20 * (seconds - 2)).margin(1e-6));
        runQuiet(10000);  // long after: down on the quiet peak, never below it
        CHECK(meter.heldDecibels() == Approx(-40).margin(1e-4));
    }
}
