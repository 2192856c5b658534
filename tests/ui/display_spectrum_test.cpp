// The probe's spectrum against a naive DFT, and its peak readout against the tone that made it.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <numbers>

#include "ui/plots/axis_ticks.h"
#include "ui/plots/display_spectrum.h"

using namespace isochron::ui;

namespace {

std::vector<float> tone(std::size_t n, double cyclesPerSample, double amplitude, double noise = 0) {
    std::vector<float> samples(n);
    std::uint32_t state = 12345;
    for (std::size_t i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        const double jitter = noise * (static_cast<double>(state >> 8) / (1 << 24) - 0.5);
        samples[i] = static_cast<float>(amplitude * std::sin(2 * std::numbers::pi * cyclesPerSample * static_cast<double>(i)) + jitter);
    }
    return samples;
}

// |sum x[i] w[i] e^(-2 pi i k n / N)| * 4 / N in dB, in double precision.
double naiveDecibels(const std::vector<float>& x, std::size_t k) {
    const std::size_t n = x.size();
    std::complex<double> sum;
    for (std::size_t i = 0; i < n; ++i) {
        const double w = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n));
        sum += static_cast<double>(x[i]) * w * std::polar(1.0, -2 * std::numbers::pi * static_cast<double>(k * i % n) / static_cast<double>(n));
    }
    return 20 * std::log10(std::max(std::abs(sum) * 4 / static_cast<double>(n), 1e-12));
}

}  // namespace

TEST_CASE("the display spectrum is the Hann-windowed DFT in dB of amplitude", "[ui][probe][spectrum]") {
    for (std::size_t n : {256u, 1024u, 2048u}) {
        INFO("N = " << n);
        const std::vector<float> x = tone(n, 0.125, 0.5, 0.01);  // on bin N / 8
        DisplaySpectrum spectrum;
        std::vector<float> db;
        spectrum.compute(x, db);
        REQUIRE(db.size() == n / 2 + 1);
        for (std::size_t k = 0; k <= n / 2; k += 7) CHECK(db[k] == Approx(naiveDecibels(x, k)).margin(0.05));
        const std::size_t bin = n / 8;
        CHECK(db[bin] == Approx(20 * std::log10(0.5)).margin(0.05));  // -6.02 dB
    }
}

TEST_CASE("the peak readout finds a tone between bins", "[ui][probe][spectrum]") {
    const double rate = 48000, n = 2048, binHz = rate / n;
    for (double frequency : {1000.0, 1234.5, 7777.7, 15000.3}) {
        INFO("f = " << frequency);
        const std::vector<float> x = tone(static_cast<std::size_t>(n), frequency / rate, 0.25);
        DisplaySpectrum spectrum;
        std::vector<float> db;
        spectrum.compute(x, db);
        const SpectrumPeak peak = findPeak(db, binHz);
        CHECK(std::abs(peak.frequencyHz - frequency) < 0.1 * binHz);
        // Hann's scalloping loss is at most 1.42 dB; the parabola recovers most of it.
        CHECK(peak.decibels == Approx(20 * std::log10(0.25)).margin(0.5));
    }
}

TEST_CASE("axis ticks are round values inside the range", "[ui][plots]") {
    CHECK(niceTicks(0, 24000, 5) == std::vector<double>{0, 5000, 10000, 15000, 20000});
    CHECK(niceTicks(-100, 0, 5) == std::vector<double>{-100, -80, -60, -40, -20, 0});
    CHECK(niceTicks(-0.3, 0.3, 4) == std::vector<double>{-0.2, 0, 0.2});
    CHECK(niceTicks(1, 1, 4).empty());
}
