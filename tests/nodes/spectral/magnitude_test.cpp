#include <catch2/catch.hpp>

#include <cmath>

#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Frames of random complex bins (some exactly zero), each describing a window of `stride` samples.
std::vector<Item> randomSpectra(std::mt19937& random, std::int64_t stride) {
    const Timebase& timebase = Timebase::get(16000);
    std::uniform_real_distribution<float> uniform(-100.0f, 100.0f);
    std::vector<Item> frames;
    for (std::size_t binCount : {1u, 2u, 17u, 129u, 513u}) {
        std::vector<std::complex<float>> bins(binCount);
        for (auto& bin : bins) bin = {uniform(random), uniform(random)};
        bins[0] = 0.0f;
        const SampleRange covered{&timebase, static_cast<std::int64_t>(frames.size()) * stride, stride};
        frames.push_back(Item::frame(SigSeg<std::complex<float>>::copyOf(bins, 0, nullptr), covered));
    }
    return frames;
}

/// Runs spectral.magnitude with `scale` over `frames`; checks shapes and ranges; returns the outputs.
std::vector<Item> magnitudesOf(const std::vector<Item>& frames, const std::string& scale) {
    NodeRun run = runNode("spectral.magnitude", {{"scale", scale}}, "frame<c32>", "spectrum", {"magnitude"}, frames);
    REQUIRE(run.outcome.failures.empty());
    REQUIRE(run.outputs[0].size() == frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        CHECK(run.outputs[0][i].kind() == ItemKind::Frame);
        CHECK(run.outputs[0][i].sampleType() == SampleType::Float32);
        CHECK(run.outputs[0][i].range() == frames[i].range());
        CHECK(run.outputs[0][i].segment().length() == frames[i].segment().length());
    }
    return run.outputs[0];
}

}  // namespace

TEST_CASE("spectral.magnitude linear is std::abs of each bin", "[spectral][magnitude]") {
    std::mt19937 random(1);
    const std::vector<Item> frames = randomSpectra(random, 256);
    const std::vector<Item> magnitudes = magnitudesOf(frames, "linear");
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const auto bins = binsOf(frames[i]);
        const std::vector<float> values = samplesOf(magnitudes[i]);
        for (std::size_t k = 0; k < bins.size(); ++k) CHECK(values[k] == std::abs(bins[k]));
    }
}

TEST_CASE("spectral.magnitude power is |z|^2 and db is 20 log10(|z| + 1e-12)", "[spectral][magnitude]") {
    std::mt19937 random(2);
    const std::vector<Item> frames = randomSpectra(random, 64);
    const std::vector<Item> powers = magnitudesOf(frames, "power");
    const std::vector<Item> decibels = magnitudesOf(frames, "db");
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const auto bins = binsOf(frames[i]);
        const std::vector<float> power = samplesOf(powers[i]);
        const std::vector<float> db = samplesOf(decibels[i]);
        for (std::size_t k = 0; k < bins.size(); ++k) {
            const std::complex<double> z(bins[k]);
            const double magnitude = std::hypot(z.real(), z.imag());
            CHECK(power[k] == Approx(magnitude * magnitude).epsilon(1e-6).margin(1e-30));
            CHECK(db[k] == Approx(20.0 * std::log10(magnitude + 1e-12)).epsilon(1e-6));
        }
        CHECK(db[0] == Approx(-240.0));  // an empty bin sits on the floor, not at -inf
    }
}
