// DETECTAUDIO up to the bearings, without capture and sync (other operators' work): one channel in
// 32-sample windows -> FFT -> magnitudes -> band score -> CFAR -> time ranges; each range is then cut
// from every channel (what segments.sync does) and localized by SRP-PHAT.
#include <catch2/catch.hpp>

#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;
constexpr std::int64_t kWindow = 32;

const char* kDetector = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "feed", "type": "test.feed", "params": {"name": "windows"}},
    {"id": "fft", "type": "spectral.fft", "params": {"size": 32}},
    {"id": "magnitude", "type": "spectral.magnitude"},
    {"id": "score", "type": "spectral.weighted_band_sum", "params": {"band_low_hz": 1000, "band_high_hz": 8000}},
    {"id": "cfar", "type": "detect.cfar_detector",
     "params": {"q": 6, "warmup_windows": 200, "adapt_windows": 2000, "hold_windows": 50, "min_windows": 4}},
    {"id": "sink", "type": "test.collect", "params": {"name": "ranges"}}
  ],
  "edges": [
    {"from": "feed.out0", "to": "fft.in"}, {"from": "fft.spectrum", "to": "magnitude.spectrum"},
    {"from": "magnitude.magnitude", "to": "score.in"}, {"from": "score.score", "to": "cfar.score"},
    {"from": "cfar.events", "to": "sink.in0"}
  ]
})";

}  // namespace

TEST_CASE("CFAR on a band score finds every simulated source and SRP-PHAT locates it", "[spatial][cfar][pipeline]") {
    Scene scene;
    scene.geometry = presetGeometry("square4:0.2");
    scene.lengthSamples = 5 * 48000;
    scene.snrDb = 20.0;
    const auto directions = randomDirections(8, 0.0, 0.0, 17);
    for (std::size_t i = 0; i < directions.size(); ++i) {
        SimulatedEvent event;
        event.azimuthDegrees = directions[i].azimuthDegrees;
        event.onsetSample = static_cast<std::int64_t>(i) * 28000 + 12000;
        event.signal = {i % 2 ? SourceKind::Chirp : SourceKind::NoiseBurst, 0.05, 1500.0, 7000.0, i + 1};
        scene.events.push_back(event);
    }
    const auto recording = simulateScene(scene);

    FeedScript windows;
    const Timebase& timebase = Timebase::get(kRate);
    for (std::int64_t start = 0; start + kWindow <= scene.lengthSamples; start += kWindow) {
        if (start % (kWindow * 64) == 0) windows.batches.emplace_back();
        const std::vector<float> samples(recording[0].begin() + start, recording[0].begin() + start + kWindow);
        windows.batches.back().push_back({0, Item::signal(makeSignal(samples, start, timebase))});
    }
    feedScripts()["windows"] = windows;
    REQUIRE(runGraph(kDetector).failures.empty());
    const std::vector<Item> ranges = collections()["ranges"].items[0];
    feedScripts().clear();
    collections().clear();

    REQUIRE(ranges.size() == scene.events.size());
    std::vector<ArrayEvent> events;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const SampleRange range = ranges[i].range();
        INFO("event " << i << " detected at [" << range.start << ", " << range.end() << ")");
        // Every detection overlaps its source's 2400 samples (mics hear it within +-30 samples of the onset).
        CHECK(range.start < scene.events[i].onsetSample + 2400);
        CHECK(range.end() > scene.events[i].onsetSample);
        events.push_back(cutEvent(recording, range.start, range.length));
    }
    feedScripts()["array"] = arrayEventScript(events, timebase);
    REQUIRE(runGraph(arrayGraph(4, {{"srp", {{"type", "spatial.srp_phat"}, {"params", {{"geometry", "square4:0.2"}, {"block", 256}}}}}},
                                "bearings"))
                .failures.empty());
    const auto& bearings = collections()["srp"].items[0];
    REQUIRE(bearings.size() == events.size());
    for (std::size_t i = 0; i < bearings.size(); ++i) {
        INFO("event " << i);
        CHECK(azimuthError(attribute(bearings[i], "azimuth_deg"), directions[i].azimuthDegrees) < 5.0);
    }
    feedScripts().clear();
    collections().clear();
}
