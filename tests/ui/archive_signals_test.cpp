// The Archive tab's signal lanes: the envelope a lane draws is the min and max of the stored samples
// in each pixel column (checked against a naive per-column scan of the samples written), read off the
// UI thread through ArchiveSignals; the audio under the playhead is the channels' mix with gaps
// silent, and play-back without an output device says why.
#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cmath>
#include <functional>
#include <random>

#include "engine/archive/archive_store.h"
#include "ui/archive/archive_signals.h"
#include "ui/archive/archive_timeline_model.h"
#include "ui/archive/signal_envelope.h"
#include "ui/archive/stream_clip.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

constexpr double kRate = 1000;
constexpr std::int64_t kGapFrom = 3000, kGapTo = 3500;  // nothing stored in either channel

/// Sample `i` of channel `channel` of the test stream: noise whose loudness moves with time.
std::vector<std::vector<float>> writeTwoChannels(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Record);
    ArchivedStreamInfo info;
    info.name = "mics";
    info.rateHz = kRate;
    info.channels = 2;
    const std::int64_t id = store.openStream(info);
    std::mt19937 random(13);
    std::uniform_real_distribution<float> noise(-1.0f, 1.0f);
    std::vector<std::vector<float>> written(2, std::vector<float>(6000, 0.0f));
    for (int channel = 0; channel < 2; ++channel) {
        for (std::size_t i = 0; i < written[static_cast<std::size_t>(channel)].size(); ++i) {
            written[static_cast<std::size_t>(channel)][i] = noise(random) * static_cast<float>(1 + i % 700) / 700.0f;
        }
        // in pieces of 250 samples, leaving the gap out
        for (std::int64_t start = 0; start < 6000; start += 250) {
            if (start >= kGapFrom && start < kGapTo) continue;
            const auto& samples = written[static_cast<std::size_t>(channel)];
            store.appendSamples(id, channel, start, std::vector<float>(samples.begin() + start, samples.begin() + start + 250));
        }
    }
    store.commit();
    return written;
}

/// The envelope computed the plain way: every sample of every channel looked at for every column.
std::vector<EnvelopeColumn> naiveEnvelope(const std::vector<std::vector<float>>& written, double from, double to, int columns) {
    const auto l = static_cast<std::int64_t>(std::floor(from * kRate)), h = static_cast<std::int64_t>(std::ceil(to * kRate));
    std::vector<EnvelopeColumn> envelope(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) {
        const std::int64_t a = l + static_cast<std::int64_t>(std::floor(static_cast<double>(h - l) * c / columns));
        const std::int64_t b = std::max(l + static_cast<std::int64_t>(std::floor(static_cast<double>(h - l) * (c + 1) / columns)), a + 1);
        EnvelopeColumn& column = envelope[static_cast<std::size_t>(c)];
        for (const auto& channel : written) {
            for (std::int64_t i = a; i < b && i < h; ++i) {
                if (i >= kGapFrom && i < kGapTo) continue;
                const float x = channel[static_cast<std::size_t>(i)];
                column.min = column.stored ? std::min(column.min, x) : x;
                column.max = column.stored ? std::max(column.max, x) : x;
                column.stored = true;
            }
        }
    }
    return envelope;
}

bool waitUntil(const std::function<bool()>& done) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < 20000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return done();
}

}  // namespace

TEST_CASE("a signal lane's envelope is the min and max of the stored samples in each column", "[ui][archive]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("envelope.sqlite").toStdString();
    const auto written = writeTwoChannels(path);
    ArchiveStore store(path, ArchiveAccess::Read);
    const ArchivedStreamInfo info = *store.stream("mics");

    // The whole stream in 300 columns (20 samples each, the gap 25 columns of nothing), a zoomed view
    // of 0.173 s over the gap's edge in 400 columns (narrower than a sample), and an uneven split.
    for (const auto& [from, to, columns] : {std::tuple{0.0, 6.0, 300}, std::tuple{2.9, 3.073, 400}, std::tuple{0.1234, 5.5, 997}}) {
        INFO(from << " to " << to << " s in " << columns << " columns");
        const std::vector<EnvelopeColumn> expected = naiveEnvelope(written, from, to, columns);
        CHECK(readSignalEnvelope(store, info, from, to, columns) == expected);
        CHECK(std::any_of(expected.begin(), expected.end(), [](const auto& c) { return !c.stored; }));  // the gap shows
    }
    // Over the sample budget each column is judged from its first samples: every value is a stored
    // sample's, and inside the naive column's bounds.
    const std::vector<EnvelopeColumn> budgeted = readSignalEnvelope(store, info, 0.0, 6.0, 100, 1000);
    const std::vector<EnvelopeColumn> exact = naiveEnvelope(written, 0.0, 6.0, 100);
    for (std::size_t c = 0; c < exact.size(); ++c) {
        CHECK(budgeted[c].stored == exact[c].stored);
        if (!exact[c].stored) continue;
        CHECK(budgeted[c].min >= exact[c].min);
        CHECK(budgeted[c].max <= exact[c].max);
    }
}

TEST_CASE("ArchiveSignals reads a lane's envelope off the UI thread and keeps it for the view", "[ui][archive]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("lanes.sqlite").toStdString();
    const auto written = writeTwoChannels(path);
    ArchiveTimelineModel timeline;
    ArchiveSignals signalsView;
    signalsView.setTimeline(&timeline);
    timeline.open(QString::fromStdString(path));
    REQUIRE(waitUntil([&] { return timeline.rowCount() == 1 && !timeline.loading(); }));

    CHECK(signalsView.envelope("mics", 1.0, 4.0, 150).isEmpty());  // being read
    REQUIRE(waitUntil([&] { return !signalsView.envelope("mics", 1.0, 4.0, 150).isEmpty(); }));
    const QVariantList envelope = signalsView.envelope("mics", 1.0, 4.0, 150);
    const std::vector<EnvelopeColumn> expected = naiveEnvelope(written, 1.0, 4.0, 150);
    REQUIRE(envelope.size() == 300);
    for (std::size_t c = 0; c < expected.size(); ++c) {
        INFO("column " << c);
        const double min = envelope[static_cast<qsizetype>(2 * c)].toDouble(), max = envelope[static_cast<qsizetype>(2 * c + 1)].toDouble();
        if (!expected[c].stored) {
            CHECK(std::isnan(min));
            CHECK(std::isnan(max));
            continue;
        }
        CHECK(min == expected[c].min);
        CHECK(max == expected[c].max);
    }
    CHECK(signalsView.envelopeError().isEmpty());
    // An event lane, an unknown stream and an empty view have no envelope.
    CHECK(signalsView.envelope("nothing", 1.0, 4.0, 150).isEmpty());
    CHECK(signalsView.envelope("mics", 4.0, 4.0, 150).isEmpty());
}

TEST_CASE("a view not read yet draws the lane's last envelope rescaled, not nothing (a growing recording's Fit view)", "[ui][archive]") {
    // Before, a view not read yet (every follow step of a growing file's Fit view) drew an empty list
    // until its read arrived: under load the lane showed as a flat bar nearly all the time.
    QTemporaryDir folder;
    const std::string path = folder.filePath("lanes.sqlite").toStdString();
    const auto written = writeTwoChannels(path);
    ArchiveTimelineModel timeline;
    ArchiveSignals signalsView;
    signalsView.setTimeline(&timeline);
    timeline.open(QString::fromStdString(path));
    REQUIRE(waitUntil([&] { return timeline.rowCount() == 1 && !timeline.loading(); }));
    REQUIRE(waitUntil([&] { return !signalsView.envelope("mics", 0.0, 6.0, 300).isEmpty(); }));

    // The file's next Fit view (0.5 s longer, same column width), asked before any event is handled:
    // its read cannot have arrived, so what is drawn is the last read's columns, nothing beyond them.
    const QVariantList grown = signalsView.envelope("mics", 0.0, 6.5, 325);
    REQUIRE(grown.size() == 650);
    const std::vector<EnvelopeColumn> shown = naiveEnvelope(written, 0.0, 6.0, 300);
    for (std::size_t c = 0; c < 325; ++c) {
        INFO("column " << c);
        const double min = grown[static_cast<qsizetype>(2 * c)].toDouble(), max = grown[static_cast<qsizetype>(2 * c + 1)].toDouble();
        if (c >= shown.size() || !shown[c].stored) {
            CHECK(std::isnan(min));
            CHECK(std::isnan(max));
            continue;
        }
        CHECK(min == shown[c].min);
        CHECK(max == shown[c].max);
    }
    // Zoomed out to half the columns: each drawn column spans two read ones, as a read of that view would.
    const std::vector<EnvelopeColumn> halved = naiveEnvelope(written, 0.0, 6.0, 150);
    CHECK(rescaleEnvelope(shown, 0.0, 6.0, 0.0, 6.0, 150) == halved);
    const QVariantList zoomedOut = signalsView.envelope("mics", 0.0, 6.0, 150);
    REQUIRE(zoomedOut.size() == 300);
    CHECK(zoomedOut[20].toDouble() == halved[10].min);
    CHECK(zoomedOut[21].toDouble() == halved[10].max);
    // Once its own read is in, the view draws that.
    REQUIRE(waitUntil([&] { return signalsView.envelope("mics", 0.0, 6.0, 150).size() == 300 && signalsView.revision() > 0; }));
}

TEST_CASE("the audio under the playhead mixes the channels, a gap is silence, and no device says why", "[ui][archive][audio]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("clip.sqlite").toStdString();
    const auto written = writeTwoChannels(path);
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::vector<float> clip = readStreamClip(store, *store.stream("mics"), 2.9, 3.6);
    REQUIRE(clip.size() == 700);
    for (std::size_t i = 0; i < clip.size(); ++i) {
        const std::size_t at = 2900 + i;
        const float expected = at >= kGapFrom && at < kGapTo ? 0.0f : (written[0][at] + written[1][at]) * 0.5f;
        CHECK(clip[i] == Approx(expected).margin(1e-6));
    }

    // The tests' ALSA configuration declares no devices (model_test_main.cpp), as on CI.
    ArchiveTimelineModel timeline;
    ArchiveSignals signalsView;
    signalsView.setTimeline(&timeline);
    timeline.open(QString::fromStdString(path));
    REQUIRE(waitUntil([&] { return timeline.rowCount() == 1 && !timeline.loading(); }));
    CHECK_FALSE(signalsView.play("mics", 1.0, 0.08).isEmpty());
    CHECK_FALSE(signalsView.playing());
    CHECK(signalsView.play("nothing", 1.0, 0.08) == "'nothing' is no signal stream of this archive");
    CHECK(signalsView.utcText("mics", 1.0).isEmpty());  // a media clock's seconds have no date
}
