#include <catch2/catch.hpp>

#include <cmath>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Real frames of `binCount` bins with value k + 1 at bin k (all distinct), each describing the
/// 2 (binCount - 1) samples of the window an FFT would have made it from.
std::vector<Item> rampFrames(std::size_t binCount, std::size_t count, const Timebase* timebase) {
    std::vector<float> values(binCount);
    for (std::size_t k = 0; k < binCount; ++k) values[k] = static_cast<float>(k + 1);
    const auto windowLength = static_cast<std::int64_t>(2 * (binCount - 1));
    std::vector<Item> frames;
    for (std::size_t i = 0; i < count; ++i) {
        frames.push_back(Item::frame(SigSeg<float>::copyOf(values, 0, nullptr),
                                     SampleRange{timebase, static_cast<std::int64_t>(i) * windowLength, windowLength}));
    }
    return frames;
}

std::vector<double> scoresOf(const NodeRun& run) {
    std::vector<double> scores;
    for (const Item& item : run.outputs[0]) scores.push_back(item.value());
    return scores;
}

}  // namespace

TEST_CASE("spectral.weighted_band_sum is the direct weighted sum, trailing weights 0", "[spectral][band_sum]") {
    const Timebase& timebase = Timebase::get(8000);
    std::mt19937 random(4);
    std::vector<Item> frames;
    std::vector<std::vector<float>> values;
    for (std::size_t i = 0; i < 6; ++i) {
        values.push_back(randomSamples(33, random));
        // Split into pieces: the sum must not depend on the frame's storage layout.
        frames.push_back(Item::frame(randomlySplit(values.back(), 0, timebase, random),
                                     SampleRange{&timebase, static_cast<std::int64_t>(64 * i), 64}));
    }
    const std::vector<double> weights = {0.5, -1.0, 2.0, 0.25, 3.0, 1.5, -0.75, 1.0, 0.125, 4.0};

    NodeRun weighted = runNode("spectral.weighted_band_sum", {{"weights", weights}}, "frame<f32>", "in", {"score"}, frames);
    NodeRun plain = runNode("spectral.weighted_band_sum", nlohmann::json::object(), "frame<f32>", "in", {"score"}, frames);
    REQUIRE(weighted.outputs[0].size() == frames.size());
    REQUIRE(plain.outputs[0].size() == frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        double expectedWeighted = 0.0;
        double expectedPlain = 0.0;
        for (std::size_t k = 0; k < values[i].size(); ++k) {
            if (k < weights.size()) expectedWeighted += weights[k] * values[i][k];
            expectedPlain += values[i][k];
        }
        CHECK(weighted.outputs[0][i].kind() == ItemKind::Scalar);
        CHECK(weighted.outputs[0][i].range() == frames[i].range());
        CHECK(weighted.outputs[0][i].value() == Approx(expectedWeighted).epsilon(1e-12));
        CHECK(plain.outputs[0][i].value() == Approx(expectedPlain).epsilon(1e-12));
    }
}

TEST_CASE("spectral.weighted_band_sum selects bins by frequency, inclusive", "[spectral][band_sum]") {
    const Timebase& timebase = Timebase::get(8000);
    // 129 bins: N = 256, 31.25 Hz per bin; [1000, 1500] Hz holds bins 32 .. 48 exactly.
    const std::vector<Item> frames = rampFrames(129, 3, &timebase);
    auto sumOfRamp = [](int first, int last) {
        double s = 0.0;
        for (int k = first; k <= last; ++k) s += k + 1;
        return s;
    };

    NodeRun band = runNode("spectral.weighted_band_sum", {{"band_low_hz", 1000.0}, {"band_high_hz", 1500.0}},
                           "frame<f32>", "in", {"score"}, frames);
    for (double score : scoresOf(band)) CHECK(score == sumOfRamp(32, 48));

    NodeRun above = runNode("spectral.weighted_band_sum", {{"band_low_hz", 3990.0}}, "frame<f32>", "in", {"score"}, frames);
    for (double score : scoresOf(above)) CHECK(score == sumOfRamp(128, 128));  // only Nyquist

    NodeRun below = runNode("spectral.weighted_band_sum", {{"band_high_hz", 40.0}}, "frame<f32>", "in", {"score"}, frames);
    for (double score : scoresOf(below)) CHECK(score == sumOfRamp(0, 1));

    std::vector<double> weights(40, 2.0);  // bins 40 .. 48 of the band have no weight
    NodeRun weightedBand = runNode("spectral.weighted_band_sum",
                                   {{"weights", weights}, {"band_low_hz", 1000.0}, {"band_high_hz", 1500.0}},
                                   "frame<f32>", "in", {"score"}, frames);
    for (double score : scoresOf(weightedBand)) CHECK(score == 2.0 * sumOfRamp(32, 39));
}

TEST_CASE("fft -> magnitude -> weighted_band_sum finds a sine in its band", "[spectral][band_sum]") {
    const Timebase& timebase = Timebase::get(8000);
    const std::size_t size = 256;
    // 1000 Hz is bin 32 exactly; a Hann window spreads it over bins 31 .. 33 only.
    std::vector<float> sine(size);
    for (std::size_t n = 0; n < size; ++n) sine[n] = static_cast<float>(std::sin(2.0 * std::numbers::pi * 1000.0 * n / 8000.0));
    const std::string chain = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "sine"}},
        {"id": "fft", "type": "spectral.fft", "params": {"window": "hann"}},
        {"id": "magnitude", "type": "spectral.magnitude"},
        {"id": "inside", "type": "spectral.weighted_band_sum", "params": {"band_low_hz": 960, "band_high_hz": 1040}},
        {"id": "outside", "type": "spectral.weighted_band_sum", "params": {"band_low_hz": 1200, "band_high_hz": 3000}},
        {"id": "sink", "type": "test.collect", "params": {"name": "sine", "inputs": 2}}
      ],
      "edges": [
        {"from": "feed.out0", "to": "fft.in"}, {"from": "fft.spectrum", "to": "magnitude.spectrum"},
        {"from": "magnitude.magnitude", "to": "inside.in"}, {"from": "magnitude.magnitude", "to": "outside.in"},
        {"from": "inside.score", "to": "sink.in0"}, {"from": "outside.score", "to": "sink.in1"}
      ]
    })";
    feedScripts()["sine"].batches = {{{0, Item::signal(makeSignal(sine, 0, timebase))}}};
    RunOutcome outcome = runGraph(chain);
    REQUIRE(outcome.failures.empty());
    const Collected& got = collections()["sine"];
    REQUIRE(got.items[0].size() == 1);
    REQUIRE(got.items[1].size() == 1);
    // Hann-windowed bin-centred sine: |X_32| = N/4, |X_31| = |X_33| = N/8.
    CHECK(got.items[0][0].value() == Approx(size / 4.0 + 2 * size / 8.0).epsilon(1e-4));
    CHECK(got.items[1][0].value() < 1e-3);
    CHECK(got.items[0][0].range() == (SampleRange{&timebase, 0, static_cast<std::int64_t>(size)}));
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("spectral.weighted_band_sum applies live weight changes", "[spectral][band_sum]") {
    const Timebase& timebase = Timebase::get(8000);
    const char* graphText = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "live", "type": "frame<f32>"}},
        {"id": "score", "type": "spectral.weighted_band_sum", "params": {"weights": [1]}},
        {"id": "sink", "type": "test.collect", "params": {"name": "live"}}
      ],
      "edges": [{"from": "feed.out0", "to": "score.in"}, {"from": "score.score", "to": "sink.in0"}]
    })";
    for (const Item& frame : rampFrames(5, 2, &timebase)) feedScripts()["live"].batches.push_back({{0, frame}});
    Engine engine(validateGraph(parseGraph(graphText), testRegistry()), parseSchedulerText("df"));
    engine.postParameter("score", "weights", std::vector<double>{0.0, 0.0, 1.0, 1.0});
    RunOutcome outcome = engine.run();
    REQUIRE(outcome.failures.empty());
    const Collected& got = collections()["live"];
    REQUIRE(got.items[0].size() == 2);
    for (const Item& score : got.items[0]) CHECK(score.value() == 3.0 + 4.0);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("spectral.weighted_band_sum refuses an inverted band and a band without a rate", "[spectral][band_sum]") {
    const Timebase& timebase = Timebase::get(8000);
    try {
        runNode("spectral.weighted_band_sum", {{"band_low_hz", 2000.0}, {"band_high_hz", 1000.0}}, "frame<f32>", "in",
                {"score"}, rampFrames(9, 1, &timebase));
        FAIL("an inverted band started");
    } catch (const GraphException& e) {
        CHECK_THAT(std::string(e.what()), Catch::Contains("op") && Catch::Contains("band_low_hz"));
    }
    NodeRun noRate = runNode("spectral.weighted_band_sum", {{"band_low_hz", 100.0}}, "frame<f32>", "in", {"score"},
                             rampFrames(9, 1, nullptr));
    REQUIRE(noRate.outcome.failures.size() == 1);
    CHECK_THAT(noRate.outcome.failures[0], Catch::Contains("node 'op'") && Catch::Contains("timebase"));
}
