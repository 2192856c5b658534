// The localization samples run from the editor: the taps the RunController adds carry each sound
// into the view's event list, with the directions of the bundled recording's sources, every track
// into the bearing-time history, and the audio for play-back; the live sample falls back to the
// recording without a device.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cmath>
#include <functional>
#include <numbers>

#include "ui/model/graph_document.h"
#include "ui/run/run_controller.h"

using namespace isochron::ui;

namespace {

// samples/data/array-square4-demo.truth.json: start (s) and azimuth (deg) of the four sources.
struct TrueSource {
    double start, azimuth;
};
constexpr TrueSource kTruth[] = {{0.375, 242.30}, {1.125, 81.10}, {1.875, 32.53}, {2.625, 46.74}};

bool waitUntil(const std::function<bool()>& done, int milliseconds) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

double azimuthDifference(double a, double b) {
    const double d = std::fmod(std::abs(a - b), 360.0);
    return std::min(d, 360.0 - d);
}

/// Every true source has one event in `model` within 50 ms of its start and 5° of its azimuth.
void checkAgainstTruth(const BearingEventModel& model) {
    for (const TrueSource& source : kTruth) {
        INFO("source at " << source.start << " s");
        int found = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const BearingEvent& e = model.at(row);
            if (std::abs(e.startSeconds - source.start) > 0.05) continue;
            ++found;
            CHECK(azimuthDifference(e.azimuthDeg, source.azimuth) < 5.0);
            CHECK(e.confidence > 0.3);
            CHECK(e.elevationDeg >= 0);  // the sources are level with the array; 0 .. 30 degrees are searched
            CHECK(e.elevationDeg <= 30);
        }
        CHECK(found == 1);
    }
}

}  // namespace

TEST_CASE("the localize-file sample's bearings and audio reach the localization view", "[ui][run][localization]") {
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/localize-file.isograph.json")));
    RunController run;
    run.setDocument(&document);
    LocalizationFeed* feed = run.localization();
    CHECK(feed->available());
    CHECK_FALSE(feed->hasMap());
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }, 30000));
    INFO(run.message().toStdString());
    REQUIRE(run.state() == "finished");
    QStringList outputs = run.telemetry()->outputs();
    outputs.sort();
    CHECK(outputs == QStringList{"background", "events", "tracks"});  // the taps are not outputs
    CHECK_FALSE(document.modified());                            // nor part of the document
    for (const isochron::NodeSpec& node : document.spec().nodes) CHECK(node.type != "io.item_tap");
    const BearingEventModel& events = *feed->events();
    CHECK(events.rowCount() == 4);
    checkAgainstTruth(events);
    CHECK(feed->dropped() == 0);
    CHECK(feed->hasTracks());
    // Every sound's track, frame by frame, at its direction while it was heard.
    for (int row = 0; row < events.rowCount(); ++row) {
        const BearingEvent& e = events.at(row);
        int heard = 0;
        for (const TrackPoint& p : feed->tracks()->points()) {
            if (p.trackId != e.trackId || !p.observed) continue;
            ++heard;
            CHECK(azimuthDifference(p.azimuthDeg, e.azimuthDeg) < 5.0);
        }
        CHECK(heard >= 3);
    }

    // Each event's audio: all four mics over the event's range, at the recording's rate.
    CHECK(feed->mics() == 4);
    for (int row = 0; row < events.rowCount(); ++row) {
        double rate = 0;
        const std::vector<float> clip = feed->clipOf(row, 0, rate);
        CHECK(rate == 16000);
        const double seconds = events.at(row).endSeconds - events.at(row).startSeconds;
        CHECK(static_cast<double>(clip.size()) == Approx(seconds * rate).margin(1));
        float peak = 0;
        for (float v : clip) peak = std::max(peak, std::abs(v));
        CHECK(peak > 0.01f);  // the sound, not silence
    }
    // No output device here: play-back says why instead of playing.
    CHECK_FALSE(feed->play(0).isEmpty());
}

TEST_CASE("the live sample without a device falls back to the recording and shows its events", "[ui][run][localization]") {
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/localize-live.isograph.json")));
    RunController run;
    run.setDocument(&document);
    REQUIRE(run.start());
    // The recording plays in real time (about 3 s).
    REQUIRE(waitUntil([&] { return run.localization()->events()->rowCount() >= 4 || !run.running(); }, 30000));
    INFO(run.message().toStdString());
    CHECK(run.state() != "failed");
    checkAgainstTruth(*run.localization()->events());
    CHECK(run.localization()->events()->at(0).trackId >= 0);  // every sound is a track
    // The editor says the recording stands in for the missing array (a notice above the canvas).
    REQUIRE(run.notices().size() == 1);
    CHECK(run.notices().front().startsWith("source: "));
    CHECK(run.notices().front().contains("playing the recording"));
    run.stopAll();
    REQUIRE(waitUntil([&] { return !run.running(); }, 10000));
}

TEST_CASE("with two arrays the positions reach the map, where both arrays' bearing lines meet", "[ui][run][localization]") {
    // tests/ui/data/two-arrays.isograph.json: the recording analysed as by arrays at (0, 0) heading 0°
    // and (6, 2) heading 105°; three of the four sounds' bearing lines meet in front of both.
    GraphDocument document;
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/tests/ui/data/two-arrays.isograph.json")));
    RunController run;
    run.setDocument(&document);
    LocalizationFeed* feed = run.localization();
    REQUIRE(feed->hasMap());
    REQUIRE(feed->arrays().size() == 2);
    CHECK(feed->arrays()[1].toMap()["heading"].toDouble() == 105);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }, 30000));
    INFO(run.message().toStdString());
    REQUIRE(run.state() == "finished");
    const BearingEventModel& events = *feed->events();
    CHECK(events.rowCount() == 8);  // four sounds, two arrays
    REQUIRE(feed->positions().size() == 3);
    const double poses[2][3] = {{0, 0, 0}, {6, 2, 105}};
    for (const SourcePosition& p : feed->positions()) {
        INFO("position at " << p.startSeconds << " s: " << p.xMetres << ", " << p.yMetres);
        for (int array = 0; array < 2; ++array) {
            int seen = 0;
            for (int row = 0; row < events.rowCount(); ++row) {
                const BearingEvent& e = events.at(row);
                if (e.array != array || std::abs(e.startSeconds - p.startSeconds) > 1e-9) continue;
                ++seen;
                const double mapDirection = std::atan2(p.yMetres - poses[array][1], p.xMetres - poses[array][0]) * 180 / std::numbers::pi;
                CHECK(azimuthDifference(mapDirection, e.azimuthDeg + poses[array][2]) < 0.5);
            }
            CHECK(seen == 1);
        }
    }
}
