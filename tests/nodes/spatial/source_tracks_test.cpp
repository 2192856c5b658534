// SourceTracks on synthetic observations (no engine): identities through a crossing, one event per
// click train, events that end with their own last observation, background for a source that does
// not stop, a robust azimuth, and reflections of an onset that are no events.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "nodes/spatial/source_tracks.h"
#include "tests/support/acoustic_simulator.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kHop = 512.0 / 48000.0;

/// Collects what the tracker reports.
struct Recorder final : SourceTrackSink {
    std::vector<SourceEvent> events;
    std::vector<BackgroundBearing> background;
    void sourceEnded(const SourceEvent& event) override { events.push_back(event); }
    void backgroundBearing(const BackgroundBearing& bearing) override { background.push_back(bearing); }
};

TrackObservation strongAt(double azimuth) { return {azimuth, 0.0, 0.8, 10.0, 10.0}; }

/// Feeds frame `index` (time index x hop) with `observations`.
void feed(SourceTracks& tracks, Recorder& recorder, int index, std::vector<TrackObservation> observations, double onset = 0.5) {
    TrackerFrame frame;
    frame.timeSeconds = index * kHop;
    frame.hopSeconds = kHop;
    frame.observations = observations;
    frame.onsetShare = onset;
    tracks.update(frame, recorder);
}

/// The id of the live track nearest to `azimuth` (-1 if none within 10 degrees).
std::int64_t trackNear(const SourceTracks& tracks, double azimuth) {
    std::int64_t id = -1;
    double best = 10.0;
    for (const TrackState& track : tracks.tracks()) {
        const double difference = azimuthError(track.azimuthDegrees, azimuth);
        if (difference < best) {
            best = difference;
            id = track.id;
        }
    }
    return id;
}

}  // namespace

TEST_CASE("two crossing targets keep their track identities", "[spatial][source_tracks]") {
    // A turns from 30 to 150 degrees and B from 150 to 30 at 40 deg/s, crossing at 90 degrees after 1.5 s;
    // each gives an observation every frame with 2 degrees of seeded noise, the stronger first at random.
    SourceTracks::Settings settings;
    settings.processNoise = 2000.0;
    settings.initialRateDegrees = 60.0;
    settings.measurementDegrees = 3.0;
    settings.backgroundSeconds = 100.0;
    SourceTracks tracks(settings);
    Recorder recorder;
    GaussianNoise noise(5);
    std::int64_t idA = -1, idB = -1;
    const int frames = static_cast<int>(3.0 / kHop);
    for (int f = 0; f < frames; ++f) {
        const double t = f * kHop;
        const double a = 30.0 + 40.0 * t + 2.0 * noise.next();
        const double b = 150.0 - 40.0 * t + 2.0 * noise.next();
        std::vector<TrackObservation> observations = {strongAt(a), strongAt(b)};
        if (noise.uniform() < 0.5) std::swap(observations[0], observations[1]);
        feed(tracks, recorder, f, observations);
        if (std::abs(t - 0.5) < kHop / 2) {
            idA = trackNear(tracks, 30.0 + 40.0 * t);
            idB = trackNear(tracks, 150.0 - 40.0 * t);
        }
        if (t > 0.5 && std::abs(t - 1.5) > 0.3) {
            INFO("t = " << t);
            CHECK(trackNear(tracks, 30.0 + 40.0 * t) == idA);
            CHECK(trackNear(tracks, 150.0 - 40.0 * t) == idB);
        }
    }
    REQUIRE(idA >= 0);
    REQUIRE(idB >= 0);
    CHECK(idA != idB);
    tracks.finish(recorder);
    REQUIRE(recorder.events.size() == 2);
}

TEST_CASE("a click train is one event from its first click to its last", "[spatial][source_tracks]") {
    SourceTracks tracks({});
    Recorder recorder;
    // Clicks every 11 frames (117 ms), each seen in two frames, 12 clicks, from 200 degrees.
    std::vector<int> clickFrames;
    for (int click = 0; click < 12; ++click) clickFrames.push_back(100 + 11 * click);
    for (int f = 0; f < 400; ++f) {
        const bool sounding = std::any_of(clickFrames.begin(), clickFrames.end(), [&](int c) { return f == c || f == c + 1; });
        feed(tracks, recorder, f, sounding ? std::vector<TrackObservation>{strongAt(200.0)} : std::vector<TrackObservation>{});
    }
    tracks.finish(recorder);
    REQUIRE(recorder.events.size() == 1);
    const SourceEvent& event = recorder.events.front();
    CHECK(event.startSeconds == Approx((clickFrames.front() - 0.5) * kHop));
    CHECK(event.endSeconds == Approx((clickFrames.back() + 1.5) * kHop));
    CHECK(event.azimuthDegrees == Approx(200.0).margin(0.5));
    CHECK(event.frames == 24);
}

TEST_CASE("an event ends with its last observation, and its azimuth ignores stray frames", "[spatial][source_tracks]") {
    SourceTracks tracks({});
    Recorder recorder;
    // 0.5 s from 350 degrees (across the wrap, 3 degrees of noise), a few stray frames at +15 degrees,
    // then weak ringing that is not strong enough to continue it, then silence.
    GaussianNoise noise(9);
    for (int f = 0; f < 47; ++f) {
        const double azimuth = f % 9 == 4 ? 5.0 : 350.0 + 3.0 * noise.next();
        feed(tracks, recorder, f, {strongAt(std::fmod(azimuth + 360.0, 360.0))});
    }
    for (int f = 47; f < 90; ++f) feed(tracks, recorder, f, {TrackObservation{350.0, 0.0, 0.2, 1.0, 0.0}}, 0.0);
    for (int f = 90; f < 200; ++f) feed(tracks, recorder, f, {});
    REQUIRE(recorder.events.size() == 1);
    CHECK(recorder.events[0].startSeconds == Approx(-0.5 * kHop));
    CHECK(recorder.events[0].endSeconds == Approx(46.5 * kHop));
    CHECK(azimuthError(recorder.events[0].azimuthDegrees, 350.0) < 1.5);
}

TEST_CASE("a source that does not stop is background: no event, bearings on their own", "[spatial][source_tracks]") {
    SourceTracks::Settings settings;
    settings.backgroundSeconds = 2.5;
    settings.backgroundIntervalSeconds = 1.0;
    SourceTracks tracks(settings);
    Recorder recorder;
    // A talker at 120 degrees for 8 s, voiced 60 % of the time in 0.4 s phrases; a click at 300 degrees at 5 s.
    for (int f = 0; f < static_cast<int>(8.0 / kHop); ++f) {
        std::vector<TrackObservation> observations;
        if (std::fmod(f * kHop, 0.4) < 0.24) observations.push_back(strongAt(120.0));
        if (f >= 470 && f < 480) observations.push_back(strongAt(300.0));
        feed(tracks, recorder, f, observations);
    }
    tracks.finish(recorder);
    REQUIRE(recorder.events.size() == 1);
    CHECK(recorder.events[0].azimuthDegrees == Approx(300.0).margin(0.5));
    REQUIRE(recorder.background.size() >= 4);
    for (const BackgroundBearing& bearing : recorder.background) {
        CHECK(bearing.azimuthDegrees == Approx(120.0).margin(0.5));
        CHECK(bearing.timeSeconds >= 2.5);
    }
}

TEST_CASE("no track starts without onset evidence, and one frame is not a source", "[spatial][source_tracks]") {
    SourceTracks tracks({});
    Recorder recorder;
    for (int f = 0; f < 100; ++f) feed(tracks, recorder, f, {TrackObservation{40.0, 0.0, 0.8, 10.0, 1.0}}, 0.0);
    feed(tracks, recorder, 150, {strongAt(80.0)});
    for (int f = 151; f < 300; ++f) feed(tracks, recorder, f, {});
    tracks.finish(recorder);
    CHECK(recorder.events.empty());
}

TEST_CASE("two sounds overlapping in time from directions 60 degrees or more apart are two events; a weak echo is none",
          "[spatial][source_tracks]") {
    SourceTracks tracks({});
    Recorder recorder;
    // A at 100 degrees for frames 50 .. 110, B at 170 degrees for frames 80 .. 140 (as strong), and an
    // echo of A at 300 degrees (a third of A's response) while A sounds.
    for (int f = 0; f < 250; ++f) {
        std::vector<TrackObservation> observations;
        if (f >= 50 && f < 110) observations.push_back(strongAt(100.0));
        if (f >= 80 && f < 140) observations.push_back(strongAt(170.0));
        if (f >= 52 && f < 108) observations.push_back({300.0, 0.0, 0.25, 10.0, 10.0});
        feed(tracks, recorder, f, observations);
    }
    tracks.finish(recorder);
    REQUIRE(recorder.events.size() == 2);
    std::vector<double> azimuths = {recorder.events[0].azimuthDegrees, recorder.events[1].azimuthDegrees};
    std::sort(azimuths.begin(), azimuths.end());
    CHECK(azimuths[0] == Approx(100.0).margin(0.5));
    CHECK(azimuths[1] == Approx(170.0).margin(0.5));
}

TEST_CASE("a weaker track that starts with another is its reflection; one that starts later is a second source",
          "[spatial][source_tracks]") {
    // A at 100 degrees for frames 50 .. 150 (response 0.8); C at 200 degrees at 0.7 of A's response, either
    // from A's first frame (a reflection of the same onset: within echo_window) or from 0.3 s later.
    for (const int delayFrames : {0, static_cast<int>(0.3 / kHop)}) {
        INFO("C starts " << delayFrames << " frames after A");
        SourceTracks tracks({});
        Recorder recorder;
        for (int f = 0; f < 300; ++f) {
            std::vector<TrackObservation> observations;
            if (f >= 50 && f < 150) observations.push_back(strongAt(100.0));
            if (f >= 50 + delayFrames && f < 140) observations.push_back({200.0, 0.0, 0.56, 10.0, 10.0});
            feed(tracks, recorder, f, observations);
        }
        tracks.finish(recorder);
        const bool reflection = delayFrames == 0;
        REQUIRE(recorder.events.size() == (reflection ? 1u : 2u));
        CHECK(recorder.events[0].azimuthDegrees == Approx(reflection ? 100.0 : 200.0).margin(0.5));
    }
}
