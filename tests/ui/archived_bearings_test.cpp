// Past localization events for the Localization tab: readArchivedBearings reads back the events an
// archive holds (written here row by row in the stored JSON form docs/archive.md gives), keeps the
// localization events of the interval and says clearly what is wrong otherwise.
#include <catch2/catch.hpp>

#include <QTemporaryDir>

#include <cmath>
#include <random>
#include <string>

#include "engine/archive/archive_store.h"
#include "ui/localization/archived_bearings.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

std::string eventJson(double azimuth, double elevation, double confidence, int track) {
    return "{\"kind\":\"event\",\"label\":\"sound\",\"score\":1,\"attributes\":{\"azimuth_deg\":" + std::to_string(azimuth) +
           ",\"elevation_deg\":" + std::to_string(elevation) + ",\"confidence\":" + std::to_string(confidence) +
           ",\"track_id\":" + std::to_string(track) + "}}";
}

}  // namespace

TEST_CASE("past localization events are the stored events of the interval, as a live run shows them", "[ui][archive]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("past.sqlite").toStdString();
    constexpr double kRate = 16000;
    struct Stored {
        std::int64_t start, length;
        double azimuth, elevation, confidence;
        int track;
    };
    std::vector<Stored> stored;
    std::mt19937 random(13);
    std::uniform_real_distribution<double> angle(0, 360), lift(-60, 60), unit(0, 1);
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        ArchivedStreamInfo events;
        events.name = "tracker.events";
        events.kind = ArchivedStreamInfo::Kind::Items;
        events.rateHz = kRate;
        events.sampleType = "json";
        const std::int64_t id = store.openStream(events);
        std::int64_t at = 100;
        for (int i = 0; i < 40; ++i) {
            // std::to_string keeps 6 decimals: store what will be read back.
            const Stored s{at, 800 + 10 * i, std::round(angle(random) * 1e6) / 1e6, std::round(lift(random) * 1e6) / 1e6,
                           std::round(unit(random) * 1e6) / 1e6, i % 3};
            store.appendItem(id, s.start, s.length, eventJson(s.azimuth, s.elevation, s.confidence, s.track));
            stored.push_back(s);
            at += 1600 + 37 * i;
        }
        // An event of another kind in the same stream: left out.
        store.appendItem(id, 2000, 10, "{\"kind\":\"event\",\"label\":\"clap\",\"score\":1,\"attributes\":{}}");
        ArchivedStreamInfo other = events;
        other.name = "detector.onsets";
        const std::int64_t onsets = store.openStream(other);
        store.appendItem(onsets, 500, 10, "{\"kind\":\"event\",\"label\":\"onset\",\"score\":0.5,\"attributes\":{\"level\":3}}");
        ArchivedStreamInfo signal;
        signal.name = "source.out";
        signal.rateHz = kRate;
        const std::int64_t samples = store.openStream(signal);
        store.appendSamples(samples, 0, 0, std::vector<float>(64, 0.5f));
        store.commit();
    }

    // The interval from the 5th event's start up to (not including) the 31st's.
    const double from = static_cast<double>(stored[5].start) / kRate, to = static_cast<double>(stored[31].start) / kRate;
    const std::vector<BearingEvent> read = readArchivedBearings(path, "tracker.events", from, to);
    REQUIRE(read.size() == 26);
    for (std::size_t i = 0; i < read.size(); ++i) {
        const Stored& s = stored[i + 5];
        INFO("event " << i + 5);
        CHECK(read[i].startSeconds == static_cast<double>(s.start) / kRate);
        CHECK(read[i].endSeconds == static_cast<double>(s.start + s.length) / kRate);
        CHECK(read[i].azimuthDeg == Approx(s.azimuth).margin(1e-9));
        CHECK(read[i].elevationDeg == Approx(s.elevation).margin(1e-9));
        CHECK(read[i].confidence == Approx(s.confidence).margin(1e-9));
        CHECK(read[i].trackId == s.track);
    }
    // The whole stream: all 40, the clap left out.
    CHECK(readArchivedBearings(path, "tracker.events", 0, 1e6).size() == 40);

    auto message = [&](const std::string& stream, double a, double b) {
        try {
            readArchivedBearings(path, stream, a, b);
        } catch (const ArchiveError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("detector.onsets", 0, 10), Catch::Contains("holds 1 item(s)") && Catch::Contains("no localization event"));
    CHECK_THAT(message("source.out", 0, 10), Catch::Contains("holds a signal"));
    CHECK_THAT(message("nothing.here", 0, 10), Catch::Contains("no stream 'nothing.here'"));
    CHECK_THAT(message("tracker.events", 900, 1000), Catch::Contains("holds no events from 900.000 s to 1000.000 s"));
    CHECK_THAT(message("tracker.events", 0.12, 0.13), Catch::Contains("holds 1 item(s)"));  // the clap at sample 2000 alone
    CHECK_THROWS_AS(readArchivedBearings(folder.filePath("missing.sqlite").toStdString(), "tracker.events", 0, 1), ArchiveError);
}
