// io.archive_sink's retention (keep_hours, keep_gb: the oldest pieces go first, across recordings),
// its trigger hook (ArchiveTriggers: each commit is announced once durable and readable), and events
// marked not to persist. Real graphs, real SQLite files. After each retention run the archive's
// running totals equal a scan of its rows.
#include <catch2/catch.hpp>

#include <mutex>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_triggers.h"
#include "engine/items/event_record.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/archive_rows.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr double kRate = 8000;
constexpr std::int64_t kBlock = 800;

float sampleAt(std::int64_t i) { return static_cast<float>(i % 65536) / 65536.0f - 0.5f; }

/// Blocks [firstBlock, firstBlock + blocks) of sampleAt() at kRate, one per batch.
FeedScript knownSignal(std::int64_t firstBlock, std::int64_t blocks) {
    FeedScript script;
    for (std::int64_t block = firstBlock; block < firstBlock + blocks; ++block) {
        std::vector<float> samples(kBlock);
        for (std::int64_t i = 0; i < kBlock; ++i) samples[static_cast<std::size_t>(i)] = sampleAt(block * kBlock + i);
        script.batches.push_back({{0, Item::signal(makeSignal(samples, block * kBlock, Timebase::get(kRate)))}});
    }
    return script;
}

RunOutcome record(const std::string& path, const FeedScript& script, json sinkParams) {
    sinkParams["path"] = path;
    sinkParams["stream"] = "mic";
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "signal"}}}}, {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", sinkParams}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}}},
    };
    feedScripts()["signal"] = script;
    RunOutcome outcome = runGraph(graph.dump());
    feedScripts().clear();
    return outcome;
}

/// The archive holds exactly sampleAt() over [start, end) of "mic", without gaps.
void checkHolds(const std::string& path, std::int64_t start, std::int64_t end) {
    ArchiveStore store(path, ArchiveAccess::Read);
    REQUIRE(store.storedStart("mic") == start);
    REQUIRE(store.storedEnd("mic") == end);
    for (const ArchivedPiece& piece : store.get("mic", 0, start, end)) {
        REQUIRE_FALSE(piece.isGap());
        const std::span<const float> samples = piece.samples.materialize();
        for (std::int64_t i = 0; i < piece.length; ++i) REQUIRE(samples[static_cast<std::size_t>(i)] == sampleAt(piece.start + i));
    }
}

/// Retention kept the newest samples from `keptFrom` to `end`: whole pieces, so from at most one piece
/// (ArchiveStore::pieceSamples()) before `keptFrom`, and exactly what was recorded.
void checkKeepsNewest(const std::string& path, std::int64_t keptFrom, std::int64_t end) {
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<std::int64_t> start = store.storedStart("mic");
    REQUIRE(start.has_value());
    CHECK(*start <= keptFrom);
    CHECK(*start > keptFrom - store.pieceSamples());
    checkHolds(path, *start, end);
}

}  // namespace

TEST_CASE("io.archive_sink keep_hours keeps the newest hours, across recordings", "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("hours.sqlite");
    const json params = {{"keep_hours", 1.5 / 3600}};  // 1.5 s = 12000 samples
    REQUIRE(record(path, knownSignal(0, 40), params).failures.empty());
    checkKeepsNewest(path, 32000 - 12000, 32000);
    REQUIRE(record(path, knownSignal(40, 40), params).failures.empty());
    checkKeepsNewest(path, 64000 - 12000, 64000);
    checkTotalsMatchRows(path);
    // Without retention, nothing is dropped.
    const std::string all = dir.file("all.sqlite");
    REQUIRE(record(all, knownSignal(0, 40), json::object()).failures.empty());
    checkHolds(all, 0, 32000);
}

TEST_CASE("io.archive_sink keep_gb keeps at most that many bytes, the newest", "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("bytes.sqlite");
    constexpr std::int64_t kLimit = 48000;  // 12000 samples of f32
    REQUIRE(record(path, knownSignal(0, 40), {{"keep_gb", kLimit * 1e-9}}).failures.empty());
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<ArchivedExtent> extent = store.extent("mic");
    REQUIRE(extent.has_value());
    CHECK(extent->bytes <= kLimit);
    CHECK(extent->bytes > kLimit - store.pieceSamples() * 4);  // whole pieces dropped: at most one too many
    checkHolds(path, extent->start, 32000);
    checkTotalsMatchRows(path);
}

TEST_CASE("io.archive_sink keep_gb counts FLAC's bytes: a compressed stream keeps the newest up to the limit", "[io][archive]") {
    TempDir dir;
    // The whole recording's size as FLAC, then a limit of half of it.
    const std::string whole = dir.file("whole.sqlite");
    REQUIRE(record(whole, knownSignal(0, 40), {{"representation", "flac"}}).failures.empty());
    const ArchivedExtent wholeExtent = ArchiveStore(whole, ArchiveAccess::Read).extent("mic").value();
    const std::int64_t wholeBytes = wholeExtent.bytes;
    REQUIRE(wholeBytes < 32000 * 4 / 2);  // it did compress
    const std::int64_t limit = wholeBytes / 2, pieceBytes = 2 * wholeBytes / wholeExtent.rows;

    const std::string path = dir.file("flac-bytes.sqlite");
    REQUIRE(record(path, knownSignal(0, 40), {{"representation", "flac"}, {"keep_gb", static_cast<double>(limit) * 1e-9}}).failures.empty());
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<ArchivedExtent> extent = store.extent("mic");
    REQUIRE(extent.has_value());  // (counting f32's bytes against FLAC's pruned everything)
    CHECK(extent->bytes <= limit);
    CHECK(extent->bytes > limit - pieceBytes);
    checkHolds(path, extent->start, 32000);
    checkTotalsMatchRows(path);
}

TEST_CASE("ArchiveTriggers announce each commit once its interval is readable", "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("triggers.sqlite");
    std::mutex mutex;
    std::vector<CommittedInterval> announced;
    bool sawGap = false;
    {
        auto subscription = ArchiveTriggers::instance().subscribe(path, "mic", [&](const CommittedInterval& interval) {
            ArchiveStore reader(path, ArchiveAccess::Read);
            bool gap = false;
            for (const ArchivedPiece& piece : reader.get("mic", 0, interval.start, interval.end)) gap = gap || piece.isGap();
            std::lock_guard lock(mutex);
            sawGap = sawGap || gap;
            announced.push_back(interval);
        });
        auto otherStream = ArchiveTriggers::instance().subscribe(path, "other", [&](const CommittedInterval&) {
            std::lock_guard lock(mutex);
            sawGap = true;  // never called: no such stream is recorded
        });
        REQUIRE(record(path, knownSignal(0, 40), {{"commit_s", 0.1}}).failures.empty());
    }
    // After the handle is gone, nothing is announced.
    REQUIRE(record(path, knownSignal(40, 10), json::object()).failures.empty());
    std::lock_guard lock(mutex);
    CHECK_FALSE(sawGap);
    REQUIRE(announced.size() >= 2);
    std::int64_t next = 0;
    for (const CommittedInterval& interval : announced) {
        CHECK(interval.path == path);
        CHECK(interval.stream == "mic");
        CHECK(interval.start == next);
        next = interval.end;
    }
    CHECK(next == 32000);
}

TEST_CASE("io.archive_sink leaves out events marked persist = 0", "[io][archive]") {
    const Timebase& timebase = Timebase::get(100);
    FeedScript script;
    for (int i = 0; i < 6; ++i) {
        EventRecord* record = EventRecord::create("clap");
        record->set("index", i);
        if (i % 2) record->set("persist", 0);
        if (i == 4) record->set("persist", 1);
        script.batches.push_back({{0, Item::event(record, SampleRange{&timebase, 10 * i, 1}, 1.0)}});
    }
    feedScripts()["events"] = script;
    TempDir dir;
    const std::string path = dir.file("events.sqlite");
    const std::string graph = recordEventsGraph(path, "claps");
    REQUIRE(runGraph(graph).failures.empty());
    feedScripts().clear();
    ArchiveStore store(path, ArchiveAccess::Read);
    std::vector<double> stored;
    for (const ArchivedItem& item : store.getItems("claps", 0, 1000)) stored.push_back(json::parse(item.json)["attributes"]["index"].get<double>());
    CHECK(stored == std::vector<double>{0, 2, 4});
}
