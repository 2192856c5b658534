// spectral.mel_bands against librosa's filterbank construction restated in numpy (committed values),
// and the mel scales against their published formulas.
#include <catch2/catch.hpp>

#include <cmath>

#include "nodes/spectral/band_filterbank.h"
#include "tests/nodes/spectral/spectral_reference.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("Mel scales follow Slaney's and HTK's formulas and invert", "[spectral][mel]") {
    CHECK(hzToMel(1000.0, MelScale::Slaney) == Approx(15.0));
    CHECK(hzToMel(500.0, MelScale::Slaney) == Approx(7.5));
    CHECK(hzToMel(6400.0, MelScale::Slaney) == Approx(42.0));  // 15 + 27 mel per factor 6.4
    CHECK(hzToMel(700.0, MelScale::Htk) == Approx(2595.0 * std::log10(2.0)));
    for (double hz : {0.0, 50.0, 999.0, 1000.0, 4321.0, 20000.0}) {
        for (MelScale scale : {MelScale::Slaney, MelScale::Htk}) CHECK(melToHz(hzToMel(hz, scale), scale) == Approx(hz).margin(1e-9));
    }
}

TEST_CASE("spectral.mel_bands matches the reference filterbank on |X|^2 frames", "[spectral][mel]") {
    const auto frames = referenceStftFrames();
    const std::int64_t size = spectralReference()["stft"]["size"];
    std::vector<Item> inputs;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        std::vector<float> power;
        for (const auto& bin : frames[f]) power.push_back(static_cast<float>(std::norm(bin)));
        inputs.push_back(referenceFrame(power, static_cast<std::int64_t>(f) * 32 - 32, size));
    }
    for (const char* name : {"slaney", "htk"}) {
        INFO(name);
        const nlohmann::json& reference = spectralReference()["mel"][name];
        const nlohmann::json params = {{"bands", reference["bands"]}, {"low_hz", reference["low_hz"]}, {"high_hz", reference["high_hz"]},
                                       {"scale", name}, {"normalize", reference["normalize"]}};
        NodeRun run = runNode("spectral.mel_bands", params, "frame<f32>", "power", {"bands"}, inputs);
        REQUIRE(run.outcome.failures.empty());
        REQUIRE(run.outputs[0].size() == frames.size());
        const auto want = reference["values"].get<std::vector<double>>();
        const std::size_t bands = reference["bands"];
        for (std::size_t f = 0; f < frames.size(); ++f) {
            const std::vector<float> got = samplesOf(run.outputs[0][f]);
            REQUIRE(got.size() == bands);
            CHECK(run.outputs[0][f].range() == inputs[f].range());
            for (std::size_t b = 0; b < bands; ++b) CHECK(got[b] == Approx(want[f * bands + b]).epsilon(1e-5).margin(1e-9));
        }
    }
}

TEST_CASE("spectral.mel_bands refuses frames whose size does not match and a band above Nyquist", "[spectral][mel]") {
    const std::vector<float> power(33, 1.0f);
    NodeRun wrongSize = runNode("spectral.mel_bands", {{"size", 128}}, "frame<f32>", "power", {"bands"}, {referenceFrame(power, 0, 64)});
    REQUIRE(wrongSize.outcome.failures.size() == 1);
    CHECK_THAT(wrongSize.outcome.failures[0], Catch::Contains("33 bins") && Catch::Contains("size 128"));
    NodeRun tooHigh = runNode("spectral.mel_bands", {{"high_hz", 6000.0}}, "frame<f32>", "power", {"bands"}, {referenceFrame(power, 0, 64)});
    REQUIRE(tooHigh.outcome.failures.size() == 1);
    CHECK_THAT(tooHigh.outcome.failures[0], Catch::Contains("6000") && Catch::Contains("Nyquist"));
}
