// Schema version 4's running totals (engine/archive/archive_totals.h) against a scan of the rows
// (tests/support/archive_rows.h), over random recordings: pieces of several channels with gaps, f32
// and FLAC, items, two stores writing one file in turns, rolled back writes, prunes (the oldest
// first, as retention does; more pieces than one statement deletes; everything). A version-3 file
// opened for reading stays version 3 and answers from its rows; opened for recording it gets its
// totals filled once, equal to the scan.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/archive/archive_store.h"
#include "tests/support/archive_rows.h"
#include "tests/support/test_files.h"

using namespace isochron;

namespace {

using isochron::test::checkTotalsMatchRows;
using isochron::test::TempFolder;

constexpr int kChannels = 3;
constexpr std::int64_t kSlot = 100;  // pieces start on a grid of slots, so that they never overlap

/// `length` samples exact at 16 bits (stored as FLAC by a "flac" stream), or f32 noise.
std::vector<float> piece(std::mt19937& random, std::int64_t length, bool exact16) {
    std::uniform_real_distribution<float> any(-1.0f, 1.0f);
    std::vector<float> samples(static_cast<std::size_t>(length));
    for (float& sample : samples) sample = exact16 ? std::round(any(random) * 32767.0f) / 32768.0f : any(random);
    return samples;
}

/// The schema version of the archive at `path`.
int userVersion(const std::string& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* query = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &query, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(query) == SQLITE_ROW);
    const int version = sqlite3_column_int(query, 0);
    sqlite3_finalize(query);
    sqlite3_close(db);
    return version;
}

/// Stores random pieces (whole slots, the first part of a slot, or none: gaps) into free slots of
/// every channel of stream `id`, and a few items into `items`, within the open transaction.
void storeSome(ArchiveStore& store, std::int64_t id, std::int64_t items, std::vector<std::vector<std::int64_t>>& freeSlots, std::mt19937& random,
               int count) {
    std::uniform_int_distribution<int> channelOf(0, kChannels - 1);
    for (int i = 0; i < count; ++i) {
        const int channel = channelOf(random);
        std::vector<std::int64_t>& free = freeSlots[static_cast<std::size_t>(channel)];
        if (free.empty()) continue;
        const std::int64_t slot = free.back();
        free.pop_back();
        const std::int64_t length = std::uniform_int_distribution<int>(0, 2)(random) == 0 ? kSlot / 3 : kSlot;
        store.appendSamples(id, channel, slot * kSlot, piece(random, length, random() % 2 == 0));
    }
    for (int i = 0; i < count / 4; ++i) {
        const std::int64_t start = std::uniform_int_distribution<std::int64_t>(0, 60 * kSlot)(random);
        store.appendItem(items, start, std::uniform_int_distribution<std::int64_t>(0, 3)(random) * kSlot / 2, "{\"at\":" + std::to_string(start) + ",\"é\":1}");
    }
}

}  // namespace

TEST_CASE("The running totals and stretches equal a scan of the rows after appends, two writers, rollbacks and prunes", "[archive]") {
    const std::string representation = GENERATE(as<std::string>{}, "f32", "flac");
    const unsigned seed = GENERATE(1u, 2u, 3u, 4u);
    INFO(representation << ", seed " << seed);
    std::mt19937 random(seed);
    TempFolder folder;
    const std::string path = folder.file("totals.sqlite");
    ArchiveStore first(path, ArchiveAccess::Record);
    ArchiveStore second(path, ArchiveAccess::Record);
    const ArchivedStreamInfo signal{.name = "array", .rateHz = 1000, .channels = kChannels, .representation = representation};
    const ArchivedStreamInfo events{.name = "events", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = 1000, .sampleType = "json"};
    const std::int64_t signalId = first.openStream(signal);
    const std::int64_t itemsId = first.openStream(events);
    REQUIRE(second.openStream(signal) == signalId);
    std::vector<std::vector<std::int64_t>> freeSlots(kChannels);
    for (std::vector<std::int64_t>& free : freeSlots) {
        for (std::int64_t slot = 0; slot < 60; ++slot) free.push_back(slot);
        std::shuffle(free.begin(), free.end(), random);
    }
    for (int round = 0; round < 12; ++round) {
        INFO("round " << round);
        ArchiveStore& writer = round % 2 == 0 ? first : second;
        const int action = std::uniform_int_distribution<int>(0, 5)(random);
        if (action == 0) {
            // Written, then rolled back (a failed commit): the totals go back with the rows.
            std::vector<std::vector<std::int64_t>> untouched = freeSlots;
            storeSome(writer, signalId, itemsId, freeSlots, random, 20);
            writer.rollback();
            freeSlots = untouched;
        } else if (action == 1) {
            const std::int64_t before = std::uniform_int_distribution<std::int64_t>(0, 65 * kSlot)(random);
            writer.prune("array", before);
            writer.prune("events", before);
        } else {
            storeSome(writer, signalId, itemsId, freeSlots, random, 25);
            writer.commit();
        }
        checkTotalsMatchRows(path);
    }
    // Everything pruned: no totals row is left behind, and the stream holds nothing.
    first.prune("array", 100 * kSlot);
    first.prune("events", 100 * kSlot);
    checkTotalsMatchRows(path);
    CHECK_FALSE(first.extent("array"));
    CHECK(first.coverage("array", 0).empty());
}

TEST_CASE("A version 3 archive read stays version 3 and answers from its rows; recorded into, it gets its totals once", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("v3.sqlite");
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const char* v3 =
            "PRAGMA journal_mode=WAL;"
            "CREATE TABLE streams (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, rate_hz REAL NOT NULL,"
            " zero_time_ns INTEGER NOT NULL, clock TEXT NOT NULL, channels INTEGER NOT NULL, sample_type TEXT NOT NULL, units TEXT NOT NULL,"
            " graph TEXT NOT NULL, node TEXT NOT NULL, representation TEXT NOT NULL DEFAULT 'f32', original_rate_hz REAL NOT NULL DEFAULT 0);"
            "CREATE TABLE segments (stream INTEGER NOT NULL, channel INTEGER NOT NULL, start INTEGER NOT NULL, length INTEGER NOT NULL,"
            " samples BLOB NOT NULL, encoding TEXT NOT NULL DEFAULT 'f32');"
            "CREATE INDEX segments_by_time ON segments(stream, channel, start);"
            "CREATE TABLE events (stream INTEGER NOT NULL, start INTEGER NOT NULL, length INTEGER NOT NULL, item TEXT NOT NULL);"
            "CREATE INDEX events_by_time ON events(stream, start);"
            "INSERT INTO streams VALUES (1, 'a', 'signal', 1000, 0, 'media', 2, 'f32', '', '', 'rec', 'f32', 1000);"
            "INSERT INTO streams VALUES (2, 'e', 'items', 1000, 0, 'media', 1, 'json', '', '', 'rec', 'f32', 1000);"
            "INSERT INTO streams VALUES (3, 'empty', 'signal', 1000, 0, 'media', 1, 'f32', '', '', 'rec', 'f32', 1000);"
            // Channel 0: [0, 30) in three pieces, a gap, [50, 60); channel 1: [10, 20) and [20, 25) (adjacent: one stretch).
            "INSERT INTO segments(stream, channel, start, length, samples) VALUES (1, 0, 0, 10, zeroblob(40)), (1, 0, 10, 10, zeroblob(40)),"
            " (1, 0, 20, 10, zeroblob(40)), (1, 0, 50, 10, zeroblob(40)), (1, 1, 10, 10, zeroblob(40)), (1, 1, 20, 5, zeroblob(20));"
            "INSERT INTO events VALUES (2, 5, 0, '{\"a\":1}'), (2, 7, 20, '{\"b\":22}');"
            "PRAGMA user_version=3;";
        REQUIRE(sqlite3_exec(db, v3, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
    }
    const std::vector<std::pair<std::int64_t, std::int64_t>> channel0 = {{0, 30}, {50, 60}}, channel1 = {{10, 25}};
    {
        ArchiveStore reader(path, ArchiveAccess::Read);
        const std::optional<ArchivedExtent> extent = reader.extent("a");
        REQUIRE(extent);
        CHECK(std::tie(extent->start, extent->end, extent->rows, extent->samples, extent->bytes) ==
              std::make_tuple(std::int64_t{0}, std::int64_t{60}, std::int64_t{6}, std::int64_t{55}, std::int64_t{220}));
        CHECK(reader.coverage("a", 0) == channel0);
        CHECK(reader.coverage("a", 1) == channel1);
        const std::optional<ArchivedExtent> items = reader.extent("e");
        REQUIRE(items);
        CHECK(std::tie(items->start, items->end, items->rows, items->bytes) ==
              std::make_tuple(std::int64_t{5}, std::int64_t{27}, std::int64_t{2}, std::int64_t{15}));
        CHECK_FALSE(reader.extent("empty"));
    }
    CHECK(userVersion(path) == 3);
    {
        ArchiveStore recorder(path, ArchiveAccess::Record);
        CHECK(userVersion(path) == 5);
        checkTotalsMatchRows(path);
        CHECK(recorder.coverage("a", 0) == channel0);
        CHECK(recorder.coverage("a", 1) == channel1);
        // From now on every write keeps them: fill the gap of channel 0, then prune the oldest.
        recorder.appendSamples(1, 0, 30, std::vector<float>(20, 0.5f));
        recorder.commit();
        CHECK(recorder.coverage("a", 0) == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 60}});
        recorder.prune("a", 20);
        checkTotalsMatchRows(path);
        CHECK(recorder.coverage("a", 0) == std::vector<std::pair<std::int64_t, std::int64_t>>{{20, 60}});
    }
    // A second recorder finds the totals there: they are not filled twice.
    ArchiveStore again(path, ArchiveAccess::Record);
    checkTotalsMatchRows(path);
}

TEST_CASE("A prune of more pieces than one of its statements deletes drops them all and keeps the totals exact", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("long.sqlite");
    ArchiveStore store(path, ArchiveAccess::Record);
    const std::int64_t id = store.openStream({.name = "long", .rateHz = 1000, .channels = 2});
    for (std::int64_t piece = 0; piece < 700; ++piece) {
        for (int channel = 0; channel < 2; ++channel) store.appendSamples(id, channel, piece * 10, std::vector<float>(10, 0.25f));
    }
    store.commit();
    const ArchiveStore::Pruned pruned = store.prune("long", 6000);
    CHECK(pruned.rows == 1200);
    CHECK(store.storedStart("long") == 6000);
    const std::optional<ArchivedExtent> extent = store.extent("long");
    REQUIRE(extent);
    CHECK(extent->rows == 200);
    checkTotalsMatchRows(path);
}
