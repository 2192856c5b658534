#include <catch2/catch.hpp>

#include <cmath>

#include "nodes/spectral/haar_transform.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Undoes `levels` levels of the orthonormal Haar transform, in double, finest level last.
std::vector<double> inverseHaar(const std::vector<float>& coefficients, int levels) {
    std::vector<double> values(coefficients.begin(), coefficients.end());
    const double s = std::sqrt(0.5);
    for (int level = levels; level >= 1; --level) {
        const std::size_t half = values.size() >> level;
        std::vector<double> merged(2 * half);
        for (std::size_t i = 0; i < half; ++i) {
            merged[2 * i] = (values[i] + values[half + i]) * s;
            merged[2 * i + 1] = (values[i] - values[half + i]) * s;
        }
        std::copy(merged.begin(), merged.end(), values.begin());
    }
    return values;
}

std::vector<float> transformed(std::vector<float> values, int levels) {
    std::vector<float> scratch(values.size() / 2);
    haarForward(values, levels, scratch);
    return values;
}

double energyOf(const std::vector<float>& values, std::size_t from = 0, std::size_t count = SIZE_MAX) {
    double energy = 0.0;
    for (std::size_t i = from; i < values.size() && i - from < count; ++i) energy += static_cast<double>(values[i]) * values[i];
    return energy;
}

}  // namespace

TEST_CASE("haarForward on small examples worked by hand", "[spectral][haar]") {
    const double r = std::sqrt(0.5);
    CHECK_THAT(transformed({1, 1, 1, 1}, 2), Catch::Approx(std::vector<float>{2, 0, 0, 0}).margin(1e-6));
    CHECK_THAT(transformed({1, 2, 3, 4}, 2),
               Catch::Approx(std::vector<float>{5, -2, float(-r), float(-r)}).margin(1e-6));
    CHECK_THAT(transformed({1, 2, 3, 4}, 1),
               Catch::Approx(std::vector<float>{float(3 * r), float(7 * r), float(-r), float(-r)}).margin(1e-6));
    CHECK_THAT(transformed({4, 2}, 0), Catch::Approx(std::vector<float>{4, 2}));
    CHECK(haarLevelCount(1) == 0);
    CHECK(haarLevelCount(1024) == 10);
    CHECK(haarLevelCount(0) == -1);
    CHECK(haarLevelCount(96) == -1);
    CHECK(haarDetailBand(16, 1).offset == 8);
    CHECK(haarDetailBand(16, 3).length == 2);
}

TEST_CASE("haarForward reconstructs perfectly and preserves energy at every level count", "[spectral][haar]") {
    std::mt19937 random(9);
    for (std::size_t length = 1; length <= 1024; length *= 2) {
        const std::vector<float> samples = randomSamples(length, random);
        for (int levels = 0; levels <= haarLevelCount(static_cast<std::int64_t>(length)); ++levels) {
            INFO(length << " samples, " << levels << " levels");
            const std::vector<float> coefficients = transformed(samples, levels);
            CHECK(energyOf(coefficients) == Approx(energyOf(samples)).epsilon(1e-5));
            const std::vector<double> back = inverseHaar(coefficients, levels);
            for (std::size_t n = 0; n < length; ++n) CHECK(back[n] == Approx(samples[n]).margin(1e-5));
        }
    }
}

TEST_CASE("spectral.haar_wavelet emits coefficients and detail-band energies per window", "[spectral][haar]") {
    const Timebase& timebase = Timebase::get(4000);
    std::mt19937 random(21);
    const std::vector<std::size_t> lengths = {1, 2, 16, 256, 1024};
    for (int requestedLevels : {0, 1, 3}) {
        INFO("levels parameter " << requestedLevels);
        std::vector<std::vector<float>> windows;
        std::vector<Item> inputs;
        std::int64_t start = 0;
        for (std::size_t length : lengths) {
            if (haarLevelCount(static_cast<std::int64_t>(length)) < requestedLevels) continue;
            windows.push_back(randomSamples(length, random));
            inputs.push_back(Item::signal(randomlySplit(windows.back(), start, timebase, random)));
            start += static_cast<std::int64_t>(length);
        }
        NodeRun run = runNode("spectral.haar_wavelet", {{"levels", requestedLevels}}, "signal<f32>", "in",
                              {"coefficients", "energies"}, inputs);
        REQUIRE(run.outcome.failures.empty());
        REQUIRE(run.outputs[0].size() == inputs.size());
        REQUIRE(run.outputs[1].size() == inputs.size());
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const std::size_t length = windows[i].size();
            const int levels = requestedLevels == 0 ? haarLevelCount(static_cast<std::int64_t>(length)) : requestedLevels;
            INFO(length << " samples");
            const std::vector<float> coefficients = samplesOf(run.outputs[0][i]);
            const std::vector<float> energies = samplesOf(run.outputs[1][i]);
            CHECK(run.outputs[0][i].range() == inputs[i].range());
            CHECK(run.outputs[1][i].range() == inputs[i].range());
            CHECK(coefficients == transformed(windows[i], levels));
            REQUIRE(energies.size() == static_cast<std::size_t>(levels));
            double bandTotal = 0.0;
            for (int band = 0; band < levels; ++band) {
                const std::size_t bandLength = length >> (levels - band);  // coarse (detail L) first
                CHECK(energies[static_cast<std::size_t>(band)] ==
                      Approx(energyOf(coefficients, bandLength, bandLength)).epsilon(1e-6).margin(1e-12));
                bandTotal += energies[static_cast<std::size_t>(band)];
            }
            const double approximationEnergy = energyOf(coefficients, 0, length >> levels);
            CHECK(bandTotal == Approx(energyOf(windows[i]) - approximationEnergy).epsilon(1e-4).margin(1e-5));
        }
    }
}

TEST_CASE("spectral.haar_wavelet refuses non-power-of-two windows and too many levels", "[spectral][haar]") {
    const Timebase& timebase = Timebase::get(4000);
    std::mt19937 random(22);
    NodeRun odd = runNode("spectral.haar_wavelet", nlohmann::json::object(), "signal<f32>", "in",
                          {"coefficients", "energies"}, {Item::signal(makeSignal(randomSamples(96, random), 0, timebase))});
    REQUIRE(odd.outcome.failures.size() == 1);
    CHECK_THAT(odd.outcome.failures[0], Catch::Contains("node 'op'") && Catch::Contains("96 samples") &&
                                            Catch::Contains("power-of-two"));
    NodeRun deep = runNode("spectral.haar_wavelet", {{"levels", 5}}, "signal<f32>", "in", {"coefficients", "energies"},
                           {Item::signal(makeSignal(randomSamples(16, random), 0, timebase))});
    REQUIRE(deep.outcome.failures.size() == 1);
    CHECK_THAT(deep.outcome.failures[0], Catch::Contains("levels 5") && Catch::Contains("16 samples"));
}
