// spectral.spectrogram against scipy.signal.spectrogram (committed reference values) and Parseval.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/nodes/spectral/spectral_reference.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("spectral.spectrogram matches scipy.signal.spectrogram in both scalings", "[spectral][spectrogram]") {
    const nlohmann::json& reference = spectralReference()["spectrogram"];
    const std::vector<float> signal = referenceSignal();
    const Timebase& timebase = Timebase::get(spectralReference()["rate"].get<double>());
    const std::int64_t size = reference["size"];
    const std::int64_t hop = reference["hop"];
    const std::size_t frames = reference["frames"];
    const std::size_t bins = static_cast<std::size_t>(size) / 2 + 1;
    std::mt19937 random(3);
    for (const char* scaling : {"density", "spectrum"}) {
        for (bool decibels : {false, true}) {
            INFO(scaling << (decibels ? " in dB" : ""));
            const auto want = reference[scaling].get<std::vector<double>>();
            NodeRun run = runNode("spectral.spectrogram", {{"size", size}, {"hop", hop}, {"scaling", scaling}, {"decibels", decibels}},
                                  "signal<f32>", "in", {"power"}, {Item::signal(randomlySplit(signal, 0, timebase, random))});
            REQUIRE(run.outcome.failures.empty());
            REQUIRE(run.outputs[0].size() == frames);
            for (std::size_t f = 0; f < frames; ++f) {
                INFO("frame " << f);
                const Item& frame = run.outputs[0][f];
                CHECK(frame.range().start == static_cast<std::int64_t>(f) * hop);
                CHECK(frame.range().length == size);
                const std::vector<float> got = samplesOf(frame);
                REQUIRE(got.size() == bins);
                double peak = 0.0;
                for (std::size_t k = 0; k < bins; ++k) peak = std::max(peak, want[f * bins + k]);
                for (std::size_t k = 0; k < bins; ++k) {
                    const double expected = want[f * bins + k];
                    // In dB too, bins are compared as powers: float rounding dominates bins far below the peak.
                    const double power = decibels ? std::pow(10.0, got[k] / 10.0) - 1e-24 : got[k];
                    CHECK(power == Approx(expected).margin(1e-6 * peak));
                }
            }
        }
    }
}

TEST_CASE("spectral.spectrogram's spectrum scaling reads A^2/2 for a sine on a bin", "[spectral][spectrogram]") {
    const Timebase& timebase = Timebase::get(1024);
    const double amplitude = 0.8;
    std::vector<float> sine(4096);
    for (std::size_t n = 0; n < sine.size(); ++n) sine[n] = static_cast<float>(amplitude * std::sin(2.0 * std::numbers::pi * 100.0 * n / 1024.0));
    for (const std::string& window : {std::string("hann"), std::string("blackman"), std::string("none")}) {
        INFO(window);
        NodeRun run = runNode("spectral.spectrogram", {{"size", 256}, {"hop", 256}, {"window", window}, {"scaling", "spectrum"}},
                              "signal<f32>", "in", {"power"}, {Item::signal(makeSignal(sine, 0, timebase))});
        REQUIRE(run.outputs[0].size() == 16);
        CHECK(samplesOf(run.outputs[0][5])[25] == Approx(amplitude * amplitude / 2.0).epsilon(1e-4));  // 100 Hz = bin 25
    }
}
