// detect.spectral_activity (after spatial.array_stft) on a synthetic recording: white noise of known
// power on four mics, then a tone on the centre of one bin. The floor is compared with the noise's
// power through a Hann window (sigma^2 x sum w^2, computed here), the tone's onset with the sample
// it starts at.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "nodes/detect/activity_frame.h"
#include "tests/nodes/spatial/frame_pipeline_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int kMics = 4;
constexpr std::int64_t kFrame = 1024;
constexpr std::size_t kToneBin = 43;  // 2015.625 Hz: on a bin centre of a 1024-point frame at 48 kHz
constexpr double kNoiseDeviation = 0.01;
constexpr std::int64_t kToneStart = 72000;  // 1.5 s
constexpr std::int64_t kToneEnd = 96000;    // 2.0 s

std::string activityGraph() {
    return nlohmann::json{
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "recording"}, {"outputs", kMics}}}},
          {{"id", "stft"}, {"type", "spatial.array_stft"}, {"params", {{"frame", kFrame}, {"hop", kFrame / 2}}}},
          {{"id", "activity"}, {"type", "detect.spectral_activity"}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "activity"}}}}}},
        {"edges",
         {{{"from", "feed.out*"}, {"to", "stft.in*"}},
          {{"from", "stft.spectra"}, {"to", "activity.spectra"}},
          {{"from", "activity.activity"}, {"to", "sink.in0"}}}}}
        .dump();
}

/// 3 s of independent white noise (deviation kNoiseDeviation) per mic, plus from kToneStart to
/// kToneEnd a tone of amplitude 0.05 on bin kToneBin's centre, the same on every mic.
std::vector<std::vector<float>> toneOverNoise() {
    std::mt19937 random(5);
    std::normal_distribution<double> noise(0.0, kNoiseDeviation);
    const double toneHz = static_cast<double>(kToneBin) * kRate / static_cast<double>(kFrame);
    std::vector<std::vector<float>> recording(kMics, std::vector<float>(static_cast<std::size_t>(3.0 * kRate)));
    for (auto& mic : recording) {
        for (std::size_t n = 0; n < mic.size(); ++n) {
            const auto i = static_cast<std::int64_t>(n);
            const double tone = i >= kToneStart && i < kToneEnd ? 0.05 * std::sin(2.0 * std::numbers::pi * toneHz * static_cast<double>(n) / kRate) : 0.0;
            mic[n] = static_cast<float>(noise(random) + tone);
        }
    }
    return recording;
}

/// White noise's expected |X_k|^2 through a periodic Hann window of kFrame samples: sigma^2 sum w_n^2.
double expectedNoisePower() {
    double sum = 0.0;
    for (std::int64_t n = 0; n < kFrame; ++n) {
        const double w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(n) / static_cast<double>(kFrame));
        sum += w * w;
    }
    return kNoiseDeviation * kNoiseDeviation * sum;
}

const ActivityFrame& frameOf(const Item& item) {
    const auto* frame = item.customAs<ActivityFrame>();
    REQUIRE(frame);
    return *frame;
}

double centreSeconds(const Item& item) { return (static_cast<double>(item.range().start) + kFrame / 2.0) / kRate; }

}  // namespace

TEST_CASE("spectral_activity's noise floor is the noise's power in every bin of the band", "[detect][spectral_activity]") {
    runOnRecording(activityGraph(), toneOverNoise(), kRate, nullptr);
    const auto frames = collected("activity");
    const double expected = expectedNoisePower();
    for (const Item& item : frames) {
        const double at = centreSeconds(item);
        if (at < 1.0 || at > 1.45) continue;  // settled, before the tone
        const ActivityFrame& frame = frameOf(item);
        const auto floor = frame.row(ActivityFrame::Row::NoiseFloor);
        double logRatio = 0.0;
        int bins = 0;
        for (auto k = static_cast<std::size_t>(frame.firstBin()); k <= static_cast<std::size_t>(frame.lastBin()); ++k) {
            logRatio += std::log(floor[k] / expected);
            ++bins;
        }
        INFO("frame at " << at << " s: mean floor / expected " << std::exp(logRatio / bins));
        CHECK(std::abs(logRatio / bins) < std::log(1.5));
    }
}

TEST_CASE("spectral_activity marks a tone's bin as a new sound within 10 ms of its start, and nothing else", "[detect][spectral_activity]") {
    runOnRecording(activityGraph(), toneOverNoise(), kRate, nullptr);
    const auto frames = collected("activity");
    const double toneStart = static_cast<double>(kToneStart) / kRate;
    const double toneEnd = static_cast<double>(kToneEnd) / kRate;
    const Item* first = nullptr;
    for (const Item& item : frames) {
        if (frameOf(item).row(ActivityFrame::Row::SignalWeight)[kToneBin] > 0.5 && centreSeconds(item) > 1.0) {
            first = &item;
            break;
        }
    }
    REQUIRE(first);
    INFO("first frame holding the tone centred at " << centreSeconds(*first) << " s");
    CHECK(std::abs(centreSeconds(*first) - toneStart) <= 0.010);
    CHECK(frameOf(*first).row(ActivityFrame::Row::Onset)[kToneBin] > 0.5);
    int inside = 0;
    for (const Item& item : frames) {
        const double start = static_cast<double>(item.range().start) / kRate;
        const double end = static_cast<double>(item.range().end()) / kRate;
        if (start < toneStart + 0.1 || end > toneEnd) continue;  // wholly inside the steady tone
        ++inside;
        const ActivityFrame& frame = frameOf(item);
        CHECK(frame.row(ActivityFrame::Row::SignalWeight)[kToneBin] > 0.9);
        CHECK(frame.row(ActivityFrame::Row::Onset)[kToneBin] < 0.2);
        // Bins 20 or more away from the tone hold only noise (a Hann window's leakage there is < -100 dB).
        int sounding = 0;
        for (auto k = static_cast<std::size_t>(frame.firstBin()); k <= static_cast<std::size_t>(frame.lastBin()); ++k) {
            if ((k + 20 <= kToneBin || k >= kToneBin + 20) && frame.row(ActivityFrame::Row::Presence)[k] > 0.5) ++sounding;
        }
        CHECK(sounding < frame.bandBins * 0.02);
    }
    CHECK(inside > 30);
}
