// Playing past localization events: readArchivedAudio takes an event's interval from the audio stream
// recorded into the same archive, the mic asked for or all mics averaged, and says why when no
// stream stores the whole interval.
#include <catch2/catch.hpp>

#include <QTemporaryDir>

#include <cmath>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "ui/localization/archived_audio.h"

using namespace isochron;
using namespace isochron::ui;

namespace {

constexpr double kRate = 1000;
// Mic `m`'s sample `i` as stored: distinct per mic and per sample.
float micSample(int m, std::int64_t i) { return static_cast<float>(std::sin(0.01 * static_cast<double>(i) * (m + 1)) + m); }

}  // namespace

TEST_CASE("a past event's audio is its interval of the archive's audio stream", "[ui][archive]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("past-audio.sqlite").toStdString();
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        // A one-channel stream of the same length that also stores everything: the mic array's has more channels.
        ArchivedStreamInfo mono;
        mono.name = "a.level";
        mono.rateHz = kRate;
        const std::int64_t level = store.openStream(mono);
        store.appendSamples(level, 0, 0, std::vector<float>(3000, -7.0f));
        ArchivedStreamInfo mics;
        mics.name = "mics.out";
        mics.rateHz = kRate;
        mics.channels = 3;
        const std::int64_t id = store.openStream(mics);
        // Stored in two pieces per channel (joined on reading), then a gap from 2000 to 2500.
        for (int m = 0; m < 3; ++m) {
            for (auto [from, to] : {std::pair<std::int64_t, std::int64_t>{0, 1200}, {1200, 2000}, {2500, 3000}}) {
                std::vector<float> samples;
                for (std::int64_t i = from; i < to; ++i) samples.push_back(micSample(m, i));
                store.appendSamples(id, m, from, samples);
            }
        }
        ArchivedStreamInfo events;
        events.name = "tracker.events";
        events.kind = ArchivedStreamInfo::Kind::Items;
        events.rateHz = kRate;
        events.sampleType = "json";
        store.openStream(events);
        store.commit();
    }

    SECTION("one mic") {
        const ArchivedAudio audio = readArchivedAudio(path, 1.1, 1.3, 2);
        CHECK(audio.why.empty());
        CHECK(audio.stream == "mics.out");
        CHECK(audio.rateHz == kRate);
        REQUIRE(audio.samples.size() == 200);
        for (std::int64_t i = 0; i < 200; ++i) CHECK(audio.samples[static_cast<std::size_t>(i)] == micSample(2, 1100 + i));
    }
    SECTION("all mics averaged, also for a mic the stream does not have") {
        for (int mic : {-1, 7}) {
            const ArchivedAudio audio = readArchivedAudio(path, 0.5, 0.6, mic);
            REQUIRE(audio.samples.size() == 100);
            for (std::int64_t i = 0; i < 100; ++i) {
                const float mean = (micSample(0, 500 + i) + micSample(1, 500 + i) + micSample(2, 500 + i)) / 3;
                CHECK(audio.samples[static_cast<std::size_t>(i)] == Approx(mean).margin(1e-6));
            }
        }
    }
    SECTION("an interval the array's stream does not store whole comes from a stream that does, or is refused") {
        const ArchivedAudio level = readArchivedAudio(path, 1.9, 2.1, 0);  // across the array's gap
        CHECK(level.stream == "a.level");
        CHECK(level.samples == std::vector<float>(200, -7.0f));
        const ArchivedAudio none = readArchivedAudio(path, 2.9, 3.1, 0);  // past the end of both
        CHECK(none.samples.empty());
        CHECK(none.why == "no audio stream of the archive stores 2.900 to 3.100 s in every channel");
    }
}

TEST_CASE("an archive without audio says so for a past event", "[ui][archive]") {
    QTemporaryDir folder;
    const std::string path = folder.filePath("events-only.sqlite").toStdString();
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        ArchivedStreamInfo events;
        events.name = "tracker.events";
        events.kind = ArchivedStreamInfo::Kind::Items;
        events.rateHz = kRate;
        events.sampleType = "json";
        store.openStream(events);
        store.commit();
    }
    const ArchivedAudio audio = readArchivedAudio(path, 0, 1, -1);
    CHECK(audio.samples.empty());
    CHECK(audio.why.find("holds no audio") != std::string::npos);
    CHECK_THROWS_AS(readArchivedAudio(folder.filePath("missing.sqlite").toStdString(), 0, 1, -1), ArchiveError);
}
