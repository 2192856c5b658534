// io.archive_sink and io.archive_source through the real engine and a real SQLite file: what is
// recorded replays sample-exact on its original timebase (whole, or an interval), a dropout comes
// back as a gap, events keep their label and attributes, and a path that can be no archive refuses
// the start.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>

#include "engine/archive/archive_store.h"
#include "engine/items/event_record.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_files.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr int kChannels = 2;
constexpr std::int64_t kLength = 3000;
/// The recording misses [kGapStart, kGapEnd) on every channel (a capture dropout).
constexpr std::int64_t kGapStart = 1200;
constexpr std::int64_t kGapEnd = 1700;

/// The recorded stream's timebase: not media time 0, so a replay that invents its own timebase shows.
const Timebase& recordedTimebase() { return Timebase::get(8000, 987654321, Clock::named("device:archive-test")); }

/// Random samples per channel over [0, kLength) (the gap's samples are never sent).
std::vector<std::vector<float>> randomChannels(std::mt19937& random) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<std::vector<float>> channels(kChannels, std::vector<float>(kLength));
    for (auto& channel : channels) {
        for (float& sample : channel) sample = value(random);
    }
    return channels;
}

/// A feed script sending each channel outside the gap as segments of random lengths (each channel
/// cut differently), channels interleaved batch by batch.
FeedScript recordingScript(const std::vector<std::vector<float>>& channels, std::mt19937& random) {
    std::uniform_int_distribution<std::int64_t> pieceLength(1, 400);
    std::vector<std::vector<std::pair<int, Item>>> perChannel(kChannels);
    for (int c = 0; c < kChannels; ++c) {
        for (auto [from, to] : {std::pair{std::int64_t{0}, kGapStart}, std::pair{kGapEnd, kLength}}) {
            for (std::int64_t start = from; start < to;) {
                const std::int64_t length = std::min(pieceLength(random), to - start);
                const std::vector<float> samples(channels[c].begin() + start, channels[c].begin() + start + length);
                perChannel[c].push_back({c, Item::signal(makeSignal(samples, start, recordedTimebase()))});
                start += length;
            }
        }
    }
    FeedScript script;
    script.outputs = kChannels;
    for (std::size_t i = 0; i < std::max(perChannel[0].size(), perChannel[1].size()); ++i) {
        std::vector<std::pair<int, Item>> batch;
        for (const auto& pieces : perChannel) {
            if (i < pieces.size()) batch.push_back(pieces[i]);
        }
        script.batches.push_back(std::move(batch));
    }
    return script;
}

/// Graph JSON: test.feed "feed" (kChannels signal outputs) recorded by io.archive_sink "rec" into `path`.
std::string recordGraph(const std::string& path) {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "recording"}, {"outputs", kChannels}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "array"}, {"channels", kChannels}, {"units", "Pa"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}, {{"from", "feed.out1"}, {"to", "rec.in1"}}}},
    };
    return graph.dump();
}

/// Checks that `items` (one channel of a replay) are exactly samples [from, to) of `original` on the
/// recorded timebase, in order, minus the gap, and that nothing is emitted inside the gap.
void checkReplay(const std::vector<Item>& items, const std::vector<float>& original, std::int64_t from, std::int64_t to) {
    std::int64_t next = from;
    for (const Item& item : items) {
        const SegmentHandle& segment = item.segment();
        REQUIRE(segment.timebase() == &recordedTimebase());
        if (next == kGapStart) next = kGapEnd;  // the gap is skipped, never filled
        REQUIRE(segment.startIndex() == next);
        CHECK((segment.endIndex() <= kGapStart || segment.startIndex() >= kGapEnd));
        const std::vector<float> samples = samplesOf(item);
        REQUIRE(std::equal(samples.begin(), samples.end(), original.begin() + segment.startIndex()));
        next = segment.endIndex();
    }
    CHECK(next == to);
}

}  // namespace

TEST_CASE("io.archive_source replays what io.archive_sink recorded sample-exact, with its timebase and its gap", "[io][archive]") {
    std::mt19937 random(1303);
    const std::vector<std::vector<float>> channels = randomChannels(random);
    for (const std::string& scheduler : {std::string("df"), std::string("fifo-slice:slice_us=0.5"), std::string("superbox-mc:workers=2")}) {
        INFO("recorded under " << scheduler);
        TempDir dir;
        const std::string path = dir.file("session.sqlite");
        feedScripts()["recording"] = recordingScript(channels, random);
        const RunOutcome recorded = runGraph(recordGraph(path), scheduler);
        feedScripts().clear();
        REQUIRE(recorded.failures.empty());

        {  // the whole stream
            const RunOutcome replayed = runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "array"}, {"channels", 0}, {"block", 256}},
                                                                 kChannels, "replay"));
            REQUIRE(replayed.failures.empty());
            for (int c = 0; c < kChannels; ++c) {
                INFO("channel " << c);
                checkReplay(collections()["replay"].items[c], channels[c], 0, kLength);
            }
        }
        {  // an interval across the gap
            const double rate = recordedTimebase().rateHz();
            const RunOutcome replayed = runGraph(sourceToCollect(
                "io.archive_source", {{"path", path}, {"stream", "array"}, {"channels", 2}, {"from", 1000 / rate}, {"duration", 1000 / rate}},
                kChannels, "replay"));
            REQUIRE(replayed.failures.empty());
            for (int c = 0; c < kChannels; ++c) {
                INFO("channel " << c);
                checkReplay(collections()["replay"].items[c], channels[c], 1000, 2000);
            }
        }
        {  // the stream's metadata
            ArchiveStore store(path, ArchiveAccess::Read);
            const std::optional<ArchivedStreamInfo> info = store.stream("array");
            REQUIRE(info.has_value());
            CHECK(&info->timebase() == &recordedTimebase());
            CHECK(info->channels == kChannels);
            CHECK(info->units == "Pa");
            CHECK(info->node == "rec");
        }
        collections().clear();
    }
}

TEST_CASE("io.archive_sink appends a second recording after what the stream holds", "[io][archive]") {
    std::mt19937 random(7);
    const std::vector<std::vector<float>> channels = randomChannels(random);
    TempDir dir;
    const std::string path = dir.file("twice.sqlite");
    FeedScript script = recordingScript(channels, random);
    // The first run records everything; the second replays it all again: nothing may be stored twice.
    for (int run = 0; run < 2; ++run) {
        feedScripts()["recording"] = script;
        REQUIRE(runGraph(recordGraph(path)).failures.empty());
    }
    feedScripts().clear();
    ArchiveStore store(path, ArchiveAccess::Read);
    for (int c = 0; c < kChannels; ++c) {
        std::int64_t storedSamples = 0;
        for (const ArchivedPiece& piece : store.get("array", c, 0, kLength)) storedSamples += piece.isGap() ? 0 : piece.length;
        CHECK(storedSamples == kLength - (kGapEnd - kGapStart));
    }
}

TEST_CASE("io.archive_sink records events as JSON rows with label, score and attributes", "[io][archive]") {
    const Timebase& timebase = Timebase::get(100);
    FeedScript script;
    for (int i = 0; i < 5; ++i) {
        EventRecord* record = EventRecord::create(i % 2 ? "clap" : "voice");
        record->set("azimuth_deg", 10.0 * i);
        script.batches.push_back({{0, Item::event(record, SampleRange{&timebase, 20 * i, 5}, 0.5 + i)}});
    }
    feedScripts()["events"] = script;
    TempDir dir;
    const std::string path = dir.file("events.sqlite");
    const std::string graph = recordEventsGraph(path, "detections");
    const RunOutcome outcome = runGraph(graph);
    feedScripts().clear();
    REQUIRE(outcome.failures.empty());

    ArchiveStore store(path, ArchiveAccess::Read);
    const std::vector<ArchivedItem> items = store.getItems("detections", 0, 1000);
    REQUIRE(items.size() == 5);
    for (int i = 0; i < 5; ++i) {
        INFO("event " << i);
        CHECK(items[i].start == 20 * i);
        CHECK(items[i].length == 5);
        const json stored = json::parse(items[i].json);
        CHECK(stored["kind"] == "event");
        CHECK(stored["label"] == (i % 2 ? "clap" : "voice"));
        CHECK(stored["score"].get<double>() == 0.5 + i);
        CHECK(stored["attributes"]["azimuth_deg"].get<double>() == 10.0 * i);
    }
}

TEST_CASE("io.archive_sink stores events an earlier run stored once: a second run of them is dropped with one warning saying so", "[io][archive]") {
    const Timebase& timebase = Timebase::get(100);
    const auto eventsFrom = [&](int first, int count) {
        FeedScript script;
        for (int i = first; i < first + count; ++i) script.batches.push_back({{0, Item::event(EventRecord::create("clap"), SampleRange{&timebase, 20 * i, 5}, 1.0)}});
        return script;
    };
    TempDir dir;
    const std::string path = dir.file("events-twice.sqlite");
    const std::string graph = recordEventsGraph(path, "claps");
    feedScripts()["events"] = eventsFrom(0, 5);
    const RunReport first = runGraphReporting(graph);
    REQUIRE(first.outcome.failures.empty());
    CHECK(first.nodes.at("rec").warnings.empty());
    // Again, with three later events after the five: only the three are new. The note said the five were
    // "sent to its 'late' output", which the sink does not have: the warning says what happens to them.
    feedScripts()["events"] = eventsFrom(0, 8);
    const RunReport second = runGraphReporting(graph);
    REQUIRE(second.outcome.failures.empty());
    const std::vector<std::string>& warnings = second.nodes.at("rec").warnings;
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains(path) && Catch::Contains("already holds stream 'claps' up to 0.85 s") &&
                                Catch::Contains("dropped, not stored again") && !Catch::Contains("late"));
    feedScripts().clear();
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::vector<ArchivedItem> items = store.getItems("claps", 0, 1000);
    REQUIRE(items.size() == 8);
    for (int i = 0; i < 8; ++i) CHECK(items[static_cast<std::size_t>(i)].start == 20 * i);
}

TEST_CASE("io.archive_sink refuses a stream on another timebase at its first item, even when all of it is already stored", "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("rates.sqlite");
    const auto graphAt = [&](double rate) {
        FeedScript script;
        script.batches.push_back({{0, Item::signal(makeSignal(std::vector<float>(100, 0.5f), 0, Timebase::get(rate)))}});
        feedScripts()["signal"] = script;
        const json graph = {
            {"format", "isochron-graph/1"},
            {"nodes",
             {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "signal"}}}},
              {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "mic"}}}}}},
            {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}}},
        };
        return runGraph(graph.dump());
    };
    REQUIRE(graphAt(16000).failures.empty());
    // Samples 0..99 at 48 kHz: all before the stored end, so nothing would be written; still refused.
    const RunOutcome outcome = graphAt(48000);
    feedScripts().clear();
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures[0], Catch::StartsWith("node 'rec'") && Catch::Contains("already holds a stream 'mic'") && Catch::Contains("16000"));
}

TEST_CASE("io.archive_sink refuses to start on a path that can be no archive (standard output too), naming node and file", "[io][archive]") {
    // A missing folder failed only once data arrived, as an archive failing mid-run does (a full disk:
    // archive_failure_test.cpp, where the rest of the graph keeps running).
    TempDir dir;
    std::ofstream(dir.file("notes.txt")) << "not an archive\n";
    const struct Case {
        std::string path, reason;
    } cases[] = {
        {dir.file("no-such-folder/session.sqlite"), "the folder '" + dir.file("no-such-folder") + "' does not exist"},
        {dir.file("notes.txt/session.sqlite"), "the folder '" + dir.file("notes.txt") + "' is not a folder"},
        {dir.file("notes.txt"), "is not an SQLite database at all (SQLite: file is not a database)"},
        {"-", "an archive cannot be written to standard output ('-')"},
    };
    FeedScript nothing;
    nothing.outputs = kChannels;
    feedScripts()["recording"] = nothing;
    for (const Case& c : cases) {
        INFO(c.path);
        CHECK_THROWS_WITH(runGraph(recordGraph(c.path)), Catch::Contains("'rec'") && Catch::Contains(c.reason));
    }
    feedScripts().clear();
    CHECK(readText(dir.file("notes.txt")) == "not an archive\n");
}

TEST_CASE("io.archive_source refuses a missing archive or stream, naming it, and standard input", "[io][archive]") {
    TempDir dir;
    const std::string missing = dir.file("missing.sqlite");
    CHECK_THROWS_WITH(runGraph(sourceToCollect("io.archive_source", {{"path", missing}, {"stream", "array"}}, 1, "none")),
                      Catch::Contains("'src'") && Catch::Contains(missing));
    const std::string path = dir.file("empty.sqlite");
    { ArchiveStore create(path, ArchiveAccess::Record); }
    CHECK_THROWS_WITH(runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "array"}}, 1, "none")),
                      Catch::Contains("no stream 'array'") && Catch::Contains(path));
    CHECK_THROWS_WITH(runGraph(sourceToCollect("io.archive_source", {{"path", "-"}, {"stream", "array"}}, 1, "none")),
                      Catch::Contains("'src'") && Catch::Contains("an archive cannot be read from standard input ('-')"));
}
