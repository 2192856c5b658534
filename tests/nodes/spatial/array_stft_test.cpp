// spatial.array_stft against a naive DFT of Hann-windowed frames, for two rates and any segmentation
// of the channels, under every scheduler.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <numbers>

#include "nodes/spatial/array_spectra.h"
#include "tests/nodes/spatial/frame_pipeline_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

std::string stftGraph(int channels, int frame, int hop) {
    return nlohmann::json{{"format", "isochron-graph/1"},
                          {"nodes",
                           {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "recording"}, {"outputs", channels}}}},
                            {{"id", "stft"}, {"type", "spatial.array_stft"}, {"params", {{"frame", frame}, {"hop", hop}}}},
                            {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "spectra"}}}}}},
                          {"edges", {{{"from", "feed.out*"}, {"to", "stft.in*"}}, {{"from", "stft.spectra"}, {"to", "sink.in0"}}}}}
        .dump();
}

/// X(k) = sum_n w(n) x(start + n) e^{-2 pi i k n / N}, w the periodic Hann window.
std::complex<double> naiveBin(const std::vector<float>& x, std::int64_t start, int frame, int k) {
    std::complex<double> sum;
    for (int n = 0; n < frame; ++n) {
        const double w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * n / frame);
        sum += w * x[static_cast<std::size_t>(start + n)] * std::polar(1.0, -2.0 * std::numbers::pi * k * n / frame);
    }
    return sum;
}

}  // namespace

TEST_CASE("array_stft gives every mic's Hann-windowed DFT per frame, whatever the segmentation", "[spatial][array_stft]") {
    constexpr int kFrame = 128, kHop = 50, kChannels = 3;
    GaussianNoise noise(21);
    std::vector<std::vector<float>> recording(kChannels, std::vector<float>(1000));
    for (auto& channel : recording) {
        for (float& sample : channel) sample = static_cast<float>(noise.next());
    }
    const std::int64_t expectedFrames = (1000 - kFrame) / kHop + 1;
    for (double rate : {16000.0, 48000.0}) {
        std::mt19937 random(static_cast<unsigned>(rate));
        for (const auto& scheduler : schedulerMatrix()) {
            INFO(scheduler << " at " << rate << " Hz");
            runOnRecording(stftGraph(kChannels, kFrame, kHop), recording, rate, &random, scheduler, 300);
            const auto frames = collected("spectra");
            REQUIRE(static_cast<std::int64_t>(frames.size()) == expectedFrames);
            for (std::int64_t f = 0; f < expectedFrames; ++f) {
                const auto* spectra = frames[static_cast<std::size_t>(f)].customAs<ArraySpectra>();
                REQUIRE(spectra);
                CHECK(frames[static_cast<std::size_t>(f)].range().start == f * kHop);
                CHECK(frames[static_cast<std::size_t>(f)].range().length == kFrame);
                CHECK(spectra->rateHz() == rate);
                CHECK(spectra->hop() == kHop);
                REQUIRE(spectra->micCount() == kChannels);
                for (int m = 0; m < kChannels; ++m) {
                    for (int k : {0, 1, 17, 40, 64}) {
                        const std::complex<double> expected = naiveBin(recording[static_cast<std::size_t>(m)], f * kHop, kFrame, k);
                        const std::complex<double> got(spectra->mic(m)[static_cast<std::size_t>(k)]);
                        CHECK(std::abs(got - expected) < 1e-4 * (1.0 + std::abs(expected)));
                    }
                }
            }
        }
    }
}

TEST_CASE("array_stft drops frames that did not arrive on every input, with a warning", "[spatial][array_stft]") {
    // Channel 1 loses samples 300 .. 399: the frames overlapping them exist on channel 0 only.
    const Timebase& timebase = Timebase::get(48000.0);
    FeedScript script;
    script.outputs = 2;
    const std::vector<float> ones(1000, 1.0f);
    script.batches.push_back({{0, Item::signal(makeSignal(ones, 0, timebase))},
                              {1, Item::signal(makeSignal(std::vector<float>(300, 1.0f), 0, timebase))},
                              {1, Item::signal(makeSignal(std::vector<float>(600, 1.0f), 400, timebase))}});
    feedScripts().clear();
    collections().clear();
    feedScripts()["recording"] = script;
    const RunOutcome outcome = runGraph(stftGraph(2, 128, 64));
    REQUIRE(outcome.failures.empty());
    const auto frames = collected("spectra");
    for (const Item& frame : frames) {
        const SampleRange range = frame.range();
        CHECK((range.end() <= 300 || range.start >= 400));
    }
    // Channel 1's grid restarts at 448 (the first grid point after the gap): frames 0..2 and 7..13.
    CHECK(frames.size() == 3 + 7);
}
