// Past events of a frame-wise tracker in the Localization tab: the localize-file sample runs from the
// editor with its tracker's three outputs recorded by real io.archive_sink nodes ("Record this
// wire"); opened from that archive, the past interval shows the very tracks and background lines the
// run's taps gave the bearing-time plot, on the interval's time axis. Without the tracks and
// background recorded, the note says which streams are missing.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "ui/localization/archived_tracks.h"
#include "ui/model/graph_document.h"
#include "ui/plots/bearing_time_plot.h"
#include "ui/run/run_controller.h"

using namespace isochron::ui;

namespace {

bool waitUntil(const std::function<bool()>& done, int milliseconds) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < milliseconds) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

/// Run the localize-file sample (on `recording` when given) with the wires `wires` recorded into
/// `archive`; the run's feed keeps what it showed.
void recordRun(GraphDocument& document, RunController& run, const QString& archive, const std::vector<QString>& wires,
               const QString& recording = {}) {
    REQUIRE(document.open(QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/localize-file.isograph.json")));
    if (!recording.isEmpty()) REQUIRE(document.setParameter(QStringLiteral("source"), QStringLiteral("path"), recording).isEmpty());
    for (const QString& wire : wires) {
        const QString recorder = document.recordWire(wire);
        INFO(wire.toStdString() << ": " << document.lastError().toStdString());
        REQUIRE_FALSE(recorder.isEmpty());
        REQUIRE(document.setParameter(recorder, QStringLiteral("path"), archive).isEmpty());
    }
    run.setDocument(&document);
    REQUIRE(run.start());
    REQUIRE(waitUntil([&] { return !run.running(); }, 30000));
    INFO(run.message().toStdString());
    REQUIRE(run.state() == "finished");
}

/// openPast and wait for its answer; returns the error (empty when shown).
QString openPast(LocalizationFeed& feed, const QString& archive, const QString& stream, double from, double to) {
    QString answer = QStringLiteral("no answer");
    const auto connection = QObject::connect(&feed, &LocalizationFeed::pastOpened, [&](const QString& error) { answer = error; });
    feed.openPast(archive, stream, from, to);
    waitUntil([&] { return answer != QStringLiteral("no answer"); }, 20000);
    QObject::disconnect(connection);
    return answer;
}

void checkSame(const std::vector<TrackPoint>& past, const std::vector<TrackPoint>& live) {
    REQUIRE(past.size() == live.size());
    for (std::size_t i = 0; i < past.size(); ++i) {
        INFO("track point " << i << " at " << live[i].seconds << " s");
        CHECK(past[i].seconds == live[i].seconds);
        CHECK(past[i].azimuthDeg == live[i].azimuthDeg);
        CHECK(past[i].trackId == live[i].trackId);
        CHECK(past[i].array == live[i].array);
        CHECK(past[i].background == live[i].background);
        CHECK(past[i].observed == live[i].observed);
    }
}

void checkSame(const std::vector<BackgroundPoint>& past, const std::vector<BackgroundPoint>& live) {
    REQUIRE(past.size() == live.size());
    for (std::size_t i = 0; i < past.size(); ++i) {
        INFO("background point " << i << " at " << live[i].seconds << " s");
        CHECK(past[i].seconds == live[i].seconds);
        CHECK(past[i].azimuthDeg == live[i].azimuthDeg);
        CHECK(past[i].confidence == live[i].confidence);
        CHECK(past[i].array == live[i].array);
        CHECK(past[i].steady == live[i].steady);
    }
}

template <class Point>
std::vector<Point> within(const std::deque<Point>& points, double from, double to) {
    std::vector<Point> kept;
    for (const Point& p : points) {
        if (p.seconds >= from && p.seconds < to) kept.push_back(p);
    }
    return kept;
}

}  // namespace

TEST_CASE("past events of a frame-wise tracker show the tracks and background the run showed", "[ui][archive][localization]") {
    QTemporaryDir folder;
    const QString archive = folder.filePath(QStringLiteral("tracked.sqlite"));
    GraphDocument document;
    RunController run;
    // Two sources that do not stop (a voice at 60°, a sweep at 200°): tracks all along and the
    // steady background's bearings.
    recordRun(document, run, archive,
              {QStringLiteral("tracker.events>events.in"), QStringLiteral("tracker.tracks>tracks.in"),
               QStringLiteral("tracker.background>background.in")},
              QStringLiteral(ISOCHRON_SOURCE_DIR "/samples/data/listen-two-sources.flac"));
    LocalizationFeed& feed = *run.localization();
    const std::deque<TrackPoint> livePoints = feed.tracks()->points();
    const std::deque<BackgroundPoint> liveBackground = feed.tracks()->background();
    const int liveEvents = feed.events()->rowCount();
    REQUIRE(feed.dropped() == 0);
    REQUIRE(liveEvents >= 1);
    REQUIRE(livePoints.size() > 100);  // every track every frame over the 3 s recording
    REQUIRE(liveBackground.size() >= 4);  // the steady noise's directions, about once a second
    const double end = std::max(livePoints.back().seconds, liveBackground.back().seconds) + 0.5;

    SECTION("the whole recording: every track state and background bearing, in order") {
        REQUIRE(openPast(feed, archive, QStringLiteral("tracker.events"), 0, end) == QString());
        CHECK(feed.events()->rowCount() == liveEvents);
        CHECK(feed.hasTracks());
        CHECK(feed.pastTracksNote().isEmpty());
        checkSame({feed.tracks()->points().begin(), feed.tracks()->points().end()}, within(livePoints, 0, end));
        checkSame({feed.tracks()->background().begin(), feed.tracks()->background().end()}, within(liveBackground, 0, end));

        // The bearing-time plot, given the interval as the Localization tab binds it, spans exactly it.
        BearingTimePlot plot;
        plot.setWidth(600);
        plot.setEvents(feed.events());
        plot.setTracks(feed.tracks());
        plot.setSpanFrom(feed.pastFrom());
        plot.setSpanTo(feed.pastTo());
        CHECK(plot.timeFrom() == 0);
        CHECK(plot.timeTo() == end);
        // Back to live: the view is empty, and the plot follows the clock again.
        feed.closePast();
        CHECK(feed.tracks()->points().empty());
        CHECK(feed.pastTo() == 0);
    }
    SECTION("an interval inside the recording: its own tracks and background, on its own axis") {
        const double from = 0.25, to = 1.75;  // the voice's event starts in it, and two seconds' background
        REQUIRE(openPast(feed, archive, QStringLiteral("tracker.events"), from, to) == QString());
        const std::vector<TrackPoint> expected = within(livePoints, from, to);
        const std::vector<BackgroundPoint> expectedBackground = within(liveBackground, from, to);
        REQUIRE(expected.size() > 20);
        REQUIRE(expectedBackground.size() >= 2);
        REQUIRE(expectedBackground.size() < liveBackground.size());
        checkSame({feed.tracks()->points().begin(), feed.tracks()->points().end()}, expected);
        checkSame({feed.tracks()->background().begin(), feed.tracks()->background().end()}, expectedBackground);
        BearingTimePlot plot;
        plot.setWidth(600);
        plot.setTracks(feed.tracks());
        plot.setSpanFrom(feed.pastFrom());
        plot.setSpanTo(feed.pastTo());
        CHECK(plot.timeFrom() == from);
        CHECK(plot.timeTo() == to);
    }
}

TEST_CASE("past events recorded without their tracks say which tracker streams are missing", "[ui][archive][localization]") {
    QTemporaryDir folder;
    const QString archive = folder.filePath(QStringLiteral("events-only.sqlite"));
    GraphDocument document;
    RunController run;
    recordRun(document, run, archive, {QStringLiteral("tracker.events>events.in")});
    LocalizationFeed& feed = *run.localization();
    REQUIRE_FALSE(feed.tracks()->points().empty());

    REQUIRE(openPast(feed, archive, QStringLiteral("tracker.events"), 0, 10) == QString());
    CHECK(feed.events()->rowCount() == 4);
    CHECK(feed.hasTracks());  // the bearing-time plot still shows the events' bars on the interval's axis
    CHECK(feed.tracks()->points().empty());
    CHECK(feed.tracks()->background().empty());
    CHECK(feed.pastTracksNote().contains(QStringLiteral("tracker.tracks and tracker.background are not recorded")));

    // An interval longer than the plot keeps: the note says the plot shows its end, as the axis does.
    REQUIRE(openPast(feed, archive, QStringLiteral("tracker.events"), 0, 200) == QString());
    CHECK(feed.pastTracksNote().contains(QStringLiteral("the interval's last 120 s")));
    BearingTimePlot plot;
    plot.setWidth(600);
    plot.setSpanFrom(feed.pastFrom());
    plot.setSpanTo(feed.pastTo());
    CHECK(plot.timeFrom() == 200 - TrackHistory::kKeptSeconds);
    CHECK(plot.timeTo() == 200);
}

TEST_CASE("only a stream named as a tracker's events has tracker streams beside it", "[ui][archive][localization]") {
    const std::optional<TrackerStreams> tracker = trackerStreamsOf("array2.tracker.events");
    REQUIRE(tracker);
    CHECK(tracker->tracks == "array2.tracker.tracks");
    CHECK(tracker->background == "array2.tracker.background");
    CHECK_FALSE(trackerStreamsOf("bearings.tracks"));  // spatial.bearing_tracker's bearings: per event, no frames
    CHECK_FALSE(trackerStreamsOf("replay_tracker_events.out0"));
    CHECK_FALSE(trackerStreamsOf(".events"));
}
