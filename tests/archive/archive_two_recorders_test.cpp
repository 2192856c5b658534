// Two recorders of one stream in one file at the same time (issue 13, S2): two processes replaying one
// WAV into one archive stream, or two generators. Two ArchiveWriters in one process model two
// processes faithfully: each has its own SQLite connection. Before the fix each recorder read the
// stream's stored end only when it started, before the other wrote anything, so every piece was stored
// twice (overlapping pieces per channel) and every item twice.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/archive/archive_writer.h"
#include "tests/support/archive_rows.h"
#include "tests/support/test_files.h"

using namespace isochron;

namespace {

using isochron::test::TempFolder;

constexpr double kRate = 1000;
constexpr int kChannels = 2;

/// Sample i of channel c: distinct and exact in f32.
float sampleAt(int channel, std::int64_t i) { return static_cast<float>(channel * 100000 + i); }

/// Samples [start, start + length) of `channel`.
SigSeg<float> piece(int channel, std::int64_t start, std::int64_t length) {
    std::vector<float> samples(static_cast<std::size_t>(length));
    for (std::int64_t i = 0; i < length; ++i) samples[static_cast<std::size_t>(i)] = sampleAt(channel, start + i);
    return SigSeg<float>::copyOf(samples, start, &Timebase::get(kRate));
}

ArchivedStreamInfo signalStream() {
    return {.name = "audio", .kind = ArchivedStreamInfo::Kind::Signal, .rateHz = kRate, .channels = kChannels};
}

ArchivedStreamInfo eventStream() {
    return {.name = "events", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = kRate, .sampleType = "json"};
}

std::unique_ptr<ArchiveStore> recordInto(const std::string& path) { return std::make_unique<ArchiveStore>(path, ArchiveAccess::Record); }

/// Pushes [from, to) of every channel in pieces of `length` (the grid starting at `from`) and flushes.
void record(ArchiveWriter& writer, std::int64_t from, std::int64_t to, std::int64_t length) {
    for (std::int64_t start = from; start < to; start += length) {
        for (int channel = 0; channel < kChannels; ++channel) REQUIRE(writer.pushSamples(channel, start, piece(channel, start, std::min(length, to - start))));
    }
    writer.flush();
    INFO(writer.problem().value_or(""));
    REQUIRE_FALSE(writer.problem());
}

/// The rows of `channel` in the file as stored: (start, length), in start order.
std::vector<std::pair<std::int64_t, std::int64_t>> storedRows(const std::string& path, int channel) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* query = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT start, length FROM segments WHERE channel = ? ORDER BY start", -1, &query, nullptr) == SQLITE_OK);
    sqlite3_bind_int(query, 1, channel);
    std::vector<std::pair<std::int64_t, std::int64_t>> rows;
    while (sqlite3_step(query) == SQLITE_ROW) rows.emplace_back(sqlite3_column_int64(query, 0), sqlite3_column_int64(query, 1));
    sqlite3_finalize(query);
    sqlite3_close(db);
    return rows;
}

/// Every sample of [0, total) is stored exactly once per channel: rows that do not overlap, cover it
/// without a gap, and hold the recorded values.
void checkStoredOnce(const std::string& path, std::int64_t total) {
    for (int channel = 0; channel < kChannels; ++channel) {
        INFO("channel " << channel);
        std::int64_t next = 0;
        for (const auto& [start, length] : storedRows(path, channel)) {
            INFO("row [" << start << ", " << start + length << ")");
            REQUIRE(start == next);
            next = start + length;
        }
        REQUIRE(next == total);
        ArchiveStore store(path, ArchiveAccess::Read);
        for (const ArchivedPiece& stored : store.get("audio", channel, 0, total)) {
            REQUIRE_FALSE(stored.isGap());
            const std::span<const float> samples = stored.samples.materialize();
            for (std::int64_t i = 0; i < stored.length; ++i) REQUIRE(samples[static_cast<std::size_t>(i)] == sampleAt(channel, stored.start + i));
        }
    }
}

std::string itemJson(const std::string& recorder, std::int64_t start) { return "{\"from\":\"" + recorder + "\",\"at\":" + std::to_string(start) + "}"; }

}  // namespace

TEST_CASE("two recorders of the same samples, both started before either wrote: every sample is stored once", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("twice.sqlite");
    // Both open the stream before anything is stored, as two processes started together do; the
    // second records on another grid of pieces, so its pieces are cut where the first's end.
    ArchiveWriter first(recordInto(path), signalStream(), {.liveSamples = 0});
    ArchiveWriter second(recordInto(path), signalStream(), {.liveSamples = 0});
    record(first, 0, 1000, 100);
    record(second, 0, 1500, 150);  // [0, 1000) is the first's: dropped, [1000, 1500) stored
    record(first, 1000, 2000, 100);  // [1000, 1500) is the second's: dropped
    record(second, 1500, 2000, 150);  // all the first's: dropped
    checkStoredOnce(path, 2000);
    isochron::test::checkTotalsMatchRows(path);  // the running totals count what was trimmed exactly once too

    const std::optional<ArchiveWriter::StoredElsewhere> secondDropped = second.storedElsewhere();
    REQUIRE(secondDropped);
    CHECK(secondDropped->samples == kChannels * (1000 + 500));
    CHECK(secondDropped->firstStart == 0);
    CHECK(secondDropped->firstEnd == 1000);
    const std::optional<ArchiveWriter::StoredElsewhere> firstDropped = first.storedElsewhere();
    REQUIRE(firstDropped);
    CHECK(firstDropped->samples == kChannels * 500);
    CHECK(firstDropped->firstStart == 1000);
    CHECK(firstDropped->firstEnd == 1500);

    // The live windows hold nothing as uncommitted that the other recorder stored (live_s 0: they
    // hold only what is not committed, and everything was committed or dropped as stored).
    for (int channel = 0; channel < kChannels; ++channel) {
        CHECK(first.liveWindow()->samples(channel, 0, 2000).empty());
        CHECK(second.liveWindow()->samples(channel, 0, 2000).empty());
    }
}

TEST_CASE("a recorder alone drops nothing as stored elsewhere", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("alone.sqlite");
    ArchiveWriter writer(recordInto(path), signalStream(), {});
    record(writer, 0, 500, 100);
    record(writer, 500, 1000, 100);
    checkStoredOnce(path, 1000);
    CHECK_FALSE(writer.storedElsewhere());
}

TEST_CASE("two recorders of the same items: each item is stored once, and the live window does not count the dropped ones", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("items.sqlite");
    ArchiveWriter first(recordInto(path), eventStream(), {});
    ArchiveWriter second(recordInto(path), eventStream(), {});
    const auto recordItems = [](ArchiveWriter& writer, int from, int to) {
        for (int i = from; i < to; ++i) REQUIRE(writer.pushItem(i * 100, 5, itemJson("same", i * 100)));
        writer.flush();
        REQUIRE_FALSE(writer.problem());
    };
    recordItems(first, 0, 10);
    recordItems(second, 0, 15);   // items 0-9 are the first's
    recordItems(first, 10, 20);   // items 10-14 are the second's
    recordItems(second, 15, 20);  // the first's
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::vector<ArchivedItem> items = store.getItems("events", 0, 2000);
    REQUIRE(items.size() == 20);
    for (int i = 0; i < 20; ++i) CHECK(items[static_cast<std::size_t>(i)].start == i * 100);
    REQUIRE(second.storedElsewhere());
    CHECK(second.storedElsewhere()->items == 15);
    REQUIRE(first.storedElsewhere());
    CHECK(first.storedElsewhere()->items == 5);

    // A reader that combines the archive with a recorder's live window (StreamReader's Any) sees each
    // item once: the dropped items are not uncommitted, and the row bound covers the other's rows.
    for (ArchiveWriter* writer : {&first, &second}) {
        const LiveItems live = writer->liveWindow()->uncommittedItems(0, 2000);
        CHECK(live.uncommitted.empty());
        CHECK(store.getItems("events", 0, 2000, live.storedRowBound).size() == 20);
    }
}

TEST_CASE("a recorder behind another of the same items does not report as uncommitted the items the other stored", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("behind.sqlite");
    ArchiveWriter ahead(recordInto(path), eventStream(), {});
    // Commits only at a flush (or after 100 s of wall time): what it queues stays uncommitted.
    ArchiveWriter behind(recordInto(path), eventStream(), {.commitNs = 100'000'000'000});
    for (int i = 0; i < 20; ++i) REQUIRE(ahead.pushItem(i * 100, 5, itemJson("same", i * 100)));
    ahead.flush();
    for (int i = 0; i < 5; ++i) REQUIRE(behind.pushItem(i * 100, 5, itemJson("same", i * 100)));
    behind.flush();  // all five dropped: the commit has seen the other's items up to 1905
    for (int i = 5; i < 10; ++i) REQUIRE(behind.pushItem(i * 100, 5, itemJson("same", i * 100)));
    // A reader combining the archive with the behind recorder's window (StreamReader's Any) sees
    // each of the 20 items once: the five queued ones will be dropped, the archive has them.
    const LiveItems live = behind.liveWindow()->uncommittedItems(0, 2000);
    CHECK(live.uncommitted.empty());
    ArchiveStore store(path, ArchiveAccess::Read);
    CHECK(store.getItems("events", 0, 2000, live.storedRowBound).size() == 20);
    behind.flush();
    CHECK(store.getItems("events", 0, 2000).size() == 20);
}

TEST_CASE("two recorders of different items: an item starting before what the other stored is dropped", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("different.sqlite");
    ArchiveWriter odd(recordInto(path), eventStream(), {});
    ArchiveWriter even(recordInto(path), eventStream(), {});
    for (const std::int64_t start : {100, 300, 500}) REQUIRE(odd.pushItem(start, 1, itemJson("odd", start)));
    odd.flush();
    // The odd recorder stored items up to 501: even's items starting before that are dropped.
    for (const std::int64_t start : {0, 200, 400, 600}) REQUIRE(even.pushItem(start, 1, itemJson("even", start)));
    even.flush();
    // Even stored items up to 601: odd's 700 is stored, odd's late 550 dropped.
    REQUIRE(odd.pushItem(700, 1, itemJson("odd", 700)));
    REQUIRE(odd.pushItem(550, 1, itemJson("odd", 550)));
    odd.flush();
    ArchiveStore store(path, ArchiveAccess::Read);
    std::vector<std::string> stored;
    for (const ArchivedItem& item : store.getItems("events", 0, 1000)) stored.push_back(item.json);
    CHECK(stored == std::vector<std::string>{itemJson("odd", 100), itemJson("odd", 300), itemJson("odd", 500), itemJson("even", 600), itemJson("odd", 700)});
    isochron::test::checkTotalsMatchRows(path);
    REQUIRE(even.storedElsewhere());
    CHECK(even.storedElsewhere()->items == 3);
    CHECK(even.storedElsewhere()->firstStart == 0);
    REQUIRE(odd.storedElsewhere());
    CHECK(odd.storedElsewhere()->items == 1);
}

TEST_CASE("a recorder alone keeps its own late items (no other recorder stored past them)", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("late.sqlite");
    ArchiveWriter writer(recordInto(path), eventStream(), {});
    REQUIRE(writer.pushItem(500, 1, itemJson("one", 500)));
    writer.flush();
    REQUIRE(writer.pushItem(100, 1, itemJson("one", 100)));  // late: before what this writer committed
    writer.flush();
    ArchiveStore store(path, ArchiveAccess::Read);
    CHECK(store.getItems("events", 0, 1000).size() == 2);
    CHECK_FALSE(writer.storedElsewhere());
}
