#include <catch2/catch.hpp>

#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// window -> fft -> magnitude -> band sum, and window -> haar, collecting every stage.
const char* kChain = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "feed", "type": "test.feed", "params": {"name": "chain"}},
    {"id": "fft", "type": "spectral.fft", "params": {"size": 512, "window": "hamming"}},
    {"id": "magnitude", "type": "spectral.magnitude", "params": {"scale": "power"}},
    {"id": "score", "type": "spectral.weighted_band_sum", "params": {"weights": [0.5, 1, 2, 1, 0.5], "band_low_hz": 10}},
    {"id": "haar", "type": "spectral.haar_wavelet", "params": {"levels": 4}},
    {"id": "sink", "type": "test.collect", "params": {"name": "chain", "inputs": 5}}
  ],
  "edges": [
    {"from": "feed.out0", "to": "fft.in"}, {"from": "feed.out0", "to": "haar.in"},
    {"from": "fft.spectrum", "to": "magnitude.spectrum"}, {"from": "magnitude.magnitude", "to": "score.in"},
    {"from": "fft.spectrum", "to": "sink.in0"}, {"from": "magnitude.magnitude", "to": "sink.in1"},
    {"from": "score.score", "to": "sink.in2"}, {"from": "haar.coefficients", "to": "sink.in3"},
    {"from": "haar.energies", "to": "sink.in4"}
  ]
})";

constexpr std::size_t kWindowLength = 256;
constexpr std::size_t kWindowCount = 24;

/// The same windows of one stream, each one piece (`random` null) or assembled from random pieces;
/// several windows per batch so that schedulers interleave differently.
FeedScript windowsScript(const std::vector<std::vector<float>>& windows, std::mt19937* random) {
    const Timebase& timebase = Timebase::get(2000);
    FeedScript script;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const auto start = static_cast<std::int64_t>(i * kWindowLength);
        SigSeg<float> window = random ? randomlySplit(windows[i], start, timebase, *random)
                                      : makeSignal(windows[i], start, timebase);
        REQUIRE((random ? window.pieceCount() > 1 : window.pieceCount() == 1));
        if (i % 3 == 0) script.batches.emplace_back();
        script.batches.back().push_back({0, Item::signal(window)});
    }
    return script;
}

}  // namespace

TEST_CASE("spectral chain gives identical outputs under every scheduler and any split of the windows",
          "[spectral][determinism]") {
    std::mt19937 random(1234);
    std::vector<std::vector<float>> windows;
    for (std::size_t i = 0; i < kWindowCount; ++i) windows.push_back(randomSamples(kWindowLength, random));

    feedScripts()["chain"] = windowsScript(windows, nullptr);
    REQUIRE(runGraph(kChain, "df").failures.empty());
    const Collected reference = collections()["chain"];
    for (const auto& stage : reference.items) REQUIRE(stage.size() == kWindowCount);
    REQUIRE(reference.finished);

    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        feedScripts()["chain"] = windowsScript(windows, &random);
        RunOutcome outcome = runGraph(kChain, scheduler);
        CHECK(outcome.completed);
        CHECK(outcome.failures.empty());
        const Collected& got = collections()["chain"];
        CHECK(got.finished);
        for (std::size_t stage = 0; stage < reference.items.size(); ++stage) {
            INFO("sink input " << stage);
            REQUIRE(got.items[stage].size() == kWindowCount);
            for (std::size_t i = 0; i < kWindowCount; ++i) {
                std::string why;
                const bool same = sameData(got.items[stage][i], reference.items[stage][i], &why);
                INFO("window " << i << ": " << why);
                CHECK(same);
            }
        }
    }
    feedScripts().clear();
    collections().clear();
}
