// The frame-wise pipeline end to end on simulated recordings (spatial.array_stft ->
// detect.spectral_activity -> spatial.frame_directions -> spatial.source_tracker): one event per
// sound, where and when it sounds; a click train in a reverberant room is one event; a source that
// never stops only on the background output; the same events for any segmentation, scheduler and
// rate; a geometry that does not fit is refused.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/nodes/spatial/frame_pipeline_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

std::string pipelineGraph(int channels, const std::string& geometry) {
    return nlohmann::json{
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "recording"}, {"outputs", channels}}}},
          {{"id", "stft"}, {"type", "spatial.array_stft"}},
          {{"id", "activity"}, {"type", "detect.spectral_activity"}},
          {{"id", "array"}, {"type", "spatial.frame_directions"}, {"params", {{"geometry", geometry}}}},
          {{"id", "tracker"}, {"type", "spatial.source_tracker"}},
          {{"id", "events"}, {"type", "test.collect"}, {"params", {{"name", "events"}}}},
          {{"id", "background"}, {"type", "test.collect"}, {"params", {{"name", "background"}}}},
          {{"id", "tracks"}, {"type", "test.collect"}, {"params", {{"name", "tracks"}}}}}},
        {"edges",
         {{{"from", "feed.out*"}, {"to", "stft.in*"}},
          {{"from", "stft.spectra"}, {"to", "activity.spectra"}},
          {{"from", "activity.activity"}, {"to", "array.activity"}},
          {{"from", "array.directions"}, {"to", "tracker.directions"}},
          {{"from", "tracker.events"}, {"to", "events.in0"}},
          {{"from", "tracker.background"}, {"to", "background.in0"}},
          {{"from", "tracker.tracks"}, {"to", "tracks.in0"}}}}}
        .dump();
}

/// Six sounds (a click train counts as one), 1.2 s apart from 0.8 s, at seeded directions 2 m away.
Scene soundsScene(const ArrayGeometry& geometry, double rateHz, std::optional<ShoeboxRoom> room) {
    Scene scene;
    scene.geometry = geometry;
    scene.rateHz = rateHz;
    scene.lengthSamples = static_cast<std::int64_t>(8.0 * rateHz);
    scene.snrDb = 20.0;
    scene.room = room;
    const auto directions = randomDirections(6, 0.0, 30.0, 31);
    for (std::size_t i = 0; i < directions.size(); ++i) {
        SimulatedEvent event;
        event.azimuthDegrees = directions[i].azimuthDegrees;
        event.elevationDegrees = directions[i].elevationDegrees;
        event.distanceMetres = 2.0;
        event.onsetSample = static_cast<std::int64_t>((0.8 + 1.2 * static_cast<double>(i)) * rateHz);
        const SourceKind kinds[] = {SourceKind::NoiseBurst, SourceKind::Chirp, SourceKind::NoiseBurst};
        event.signal = {kinds[i % 3], 0.3, 400.0, std::min(6000.0, rateHz / 2.0), 40 + i};
        scene.events.push_back(event);
    }
    return scene;
}

}  // namespace

TEST_CASE("the pipeline gives one event per simulated sound, where and when it sounds", "[spatial][pipeline]") {
    struct Case {
        const char* preset;
        double rate;
        std::optional<ShoeboxRoom> room;
    };
    // A shoebox whose walls reflect 77 % of the amplitude, specularly, up to 3 times: its strongest
    // reflections are nearly as loud as the sound and may give weaker events of their own.
    ShoeboxRoom room;
    room.absorption = 0.4;
    room.maxOrder = 3;
    const Case cases[] = {{"circular8:0.046", 48000.0, std::nullopt}, {"square4:0.046", 48000.0, room}, {"circular8:0.046", 16000.0, std::nullopt}};
    for (const Case& c : cases) {
        INFO(c.preset << " at " << c.rate << (c.room ? " Hz in a room" : " Hz in free field"));
        const Scene scene = soundsScene(presetGeometry(c.preset), c.rate, c.room);
        runOnRecording(pipelineGraph(scene.geometry.micCount(), c.preset), simulateScene(scene), c.rate, nullptr);
        const auto events = collected("events");
        std::vector<char> matched(events.size(), 0);
        std::vector<double> ids;
        for (const Item& item : events) ids.push_back(attribute(item, "track_id"));
        for (const SimulatedEvent& truth : scene.events) {
            const double start = static_cast<double>(truth.onsetSample) / c.rate;
            const double end = start + truth.signal.durationSeconds;
            INFO("sound at " << start << " s from " << truth.azimuthDegrees << " degrees");
            std::size_t best = events.size();
            for (std::size_t i = 0; i < events.size(); ++i) {
                const double at = static_cast<double>(events[i].range().start) / c.rate;
                if (std::abs(at - start) > 0.03) continue;
                if (best == events.size() || attribute(events[i], "confidence") > attribute(events[best], "confidence")) best = i;
            }
            REQUIRE(best < events.size());
            matched[best] = 1;
            CHECK(static_cast<double>(events[best].range().end()) / c.rate == Approx(end).margin(0.1));
            CHECK(azimuthError(attribute(events[best], "azimuth_deg"), truth.azimuthDegrees) < 3.0);
            CHECK(attribute(events[best], "confidence") <= 1.0);
            // Anything else in its time is a weaker reflection, and only in the room.
            for (std::size_t i = 0; i < events.size(); ++i) {
                if (i == best || events[i].range().end() < truth.onsetSample || events[i].range().start > truth.onsetSample + static_cast<std::int64_t>(truth.signal.durationSeconds * c.rate)) continue;
                matched[i] = 1;
                CHECK(c.room.has_value());
                CHECK(attribute(events[i], "confidence") < attribute(events[best], "confidence"));
            }
        }
        CHECK(std::count(matched.begin(), matched.end(), 0) == 0);
        CHECK(events.size() <= 2 * scene.events.size());
        std::sort(ids.begin(), ids.end());
        CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
        CHECK(collected("background").empty());
    }
}

TEST_CASE("a click train in a reverberant room is one event, from its first click to its last", "[spatial][pipeline]") {
    // Twelve 1 ms clicks (1-8 kHz) every 80 ms from 140 degrees, 2 m away, from 1.0 s, in a shoebox
    // whose walls reflect 77 % of the amplitude up to 3 times.
    for (const char* preset : {"circular8:0.046", "square4:0.046"}) {
        INFO(preset);
        Scene scene;
        scene.geometry = presetGeometry(preset);
        scene.rateHz = 48000.0;
        scene.lengthSamples = static_cast<std::int64_t>(3.5 * scene.rateHz);
        scene.snrDb = 20.0;
        ShoeboxRoom room;
        room.absorption = 0.4;
        room.maxOrder = 3;
        scene.room = room;
        for (int click = 0; click < 12; ++click) {
            SimulatedEvent event;
            event.azimuthDegrees = 140.0;
            event.elevationDegrees = 10.0;
            event.distanceMetres = 2.0;
            event.onsetSample = static_cast<std::int64_t>((1.0 + 0.08 * click) * scene.rateHz);
            event.signal = {SourceKind::Click, 0.001, 1000.0, 8000.0, 0};
            scene.events.push_back(event);
        }
        runOnRecording(pipelineGraph(scene.geometry.micCount(), preset), simulateScene(scene), scene.rateHz, nullptr);
        const auto events = collected("events");
        REQUIRE(events.size() == 1);
        CHECK(static_cast<double>(events[0].range().start) / scene.rateHz == Approx(1.0).margin(0.01));
        // It covers the whole train and ends with the last click and the room's first ringing (stray noise
        // frames near the track after a silence no longer extend it).
        const double lastClickEnd = 1.0 + 0.08 * 11 + 0.001;
        UNSCOPED_INFO("event ends at " << static_cast<double>(events[0].range().end()) / scene.rateHz << " s");
        CHECK(static_cast<double>(events[0].range().end()) / scene.rateHz >= lastClickEnd);
        CHECK(static_cast<double>(events[0].range().end()) / scene.rateHz <= lastClickEnd + 0.1);
        CHECK(azimuthError(attribute(events[0], "azimuth_deg"), 140.0) < 3.0);
        CHECK(collected("background").empty());
    }
}

TEST_CASE("a source that never stops is background, never an event", "[spatial][pipeline]") {
    // A talker-like source: noise 300-3000 Hz switched on for 0.3 s of every 0.45 s from 90 degrees, all
    // 8 s; plus the six sounds.
    Scene scene = soundsScene(presetGeometry("circular8:0.046"), 48000.0, std::nullopt);
    for (int phrase = 0; phrase * 0.45 < 8.0 - 0.3; ++phrase) {
        SimulatedEvent talker;
        talker.azimuthDegrees = 90.0;
        talker.distanceMetres = 3.0;
        talker.onsetSample = static_cast<std::int64_t>(phrase * 0.45 * 48000.0);
        talker.amplitude = 0.5;
        talker.signal = {SourceKind::NoiseBurst, 0.3, 300.0, 3000.0, 100 + static_cast<std::uint64_t>(phrase)};
        scene.events.push_back(talker);
    }
    runOnRecording(pipelineGraph(8, "circular8:0.046"), simulateScene(scene), 48000.0, nullptr);
    for (const Item& item : collected("events")) {
        INFO("event at " << static_cast<double>(item.range().start) / 48000.0 << " s");
        CHECK(azimuthError(attribute(item, "azimuth_deg"), 90.0) > 30.0);
    }
    const auto background = collected("background");
    REQUIRE(background.size() >= 3);
    for (const Item& item : background) CHECK(azimuthError(attribute(item, "azimuth_deg"), 90.0) < 5.0);
}

TEST_CASE("the pipeline's events do not depend on segmentation or scheduler", "[spatial][pipeline]") {
    const Scene scene = soundsScene(presetGeometry("square4:0.046"), 48000.0, std::nullopt);
    const auto recording = simulateScene(scene);
    runOnRecording(pipelineGraph(4, "square4:0.046"), recording, 48000.0, nullptr);
    const std::vector<Item> reference = collected("events");
    const std::vector<Item> referenceTracks = collected("tracks");
    REQUIRE(!reference.empty());
    std::mt19937 random(77);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        runOnRecording(pipelineGraph(4, "square4:0.046"), recording, 48000.0, &random, scheduler, 5000);
        const std::vector<Item> events = collected("events");
        REQUIRE(events.size() == reference.size());
        for (std::size_t i = 0; i < events.size(); ++i) {
            std::string why;
            CHECK(sameData(events[i], reference[i], &why));
            INFO(why);
        }
        CHECK(collected("tracks").size() == referenceTracks.size());
    }
}

TEST_CASE("a geometry whose mic count does not fit the recording is refused before the run, naming the parameter",
          "[spatial][pipeline]") {
    // Validation refuses it (spatial.frame_directions' checkUpstream); nothing starts.
    CHECK_THROWS_WITH(runGraph(pipelineGraph(4, "circular8:0.046")),
                      Catch::Contains("node 'array', parameter 'geometry'") &&
                          Catch::Contains("places 8 mics but the audio of node 'feed' has 4 channels"));
}
