// io.archive_sink publishes its live window: a reader in the process (StreamReader) gets an interval
// across live and stored data while the graph keeps recording. The reader runs inside the commit
// trigger (on the writer thread, so at a known committed end, while the engine thread goes on
// pushing) and compares what it gets with the samples the feed sent (the reference). At the first
// commit the trigger waits (polling the live window, bounded at 60 s) until the engine thread has
// handed over the whole feed, so that read must reach past the archive into the live window.
#include <catch2/catch.hpp>

#include <chrono>
#include <mutex>
#include <thread>
#include <random>

#include "engine/archive/archive_triggers.h"
#include "engine/archive/live_streams.h"
#include "engine/archive/stream_reader.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr double kRate = 8000;
constexpr std::int64_t kTotal = 40000;
constexpr std::int64_t kDropStart = 12000;  // a capture dropout: [kDropStart, kDropEnd) is never sent
constexpr std::int64_t kDropEnd = 13200;  // both multiples of the feed's 400-sample blocks

using Stretches = std::vector<std::pair<std::int64_t, std::int64_t>>;

/// What one read inside the trigger saw.
struct Read {
    CommittedInterval committed;
    bool exact = true;        // every sample equals the reference, on the feed's timebase, at its index
    bool contiguous = true;   // the pieces cover [0, kTotal) in order
    Stretches held;           // stretches holding samples (adjacent pieces merged)
    int livePieces = 0;       // pieces read from the live window
    bool storedBeforeLive = true;  // stored pieces end by the committed end, live ones start after it
};

std::string describe(const Stretches& stretches) {
    std::string text;
    for (auto [start, end] : stretches) text += "[" + std::to_string(start) + ", " + std::to_string(end) + ") ";
    return text;
}

/// What was sent of [0, end).
Stretches sentBefore(std::int64_t end) {
    Stretches sent{{0, std::min(end, kDropStart)}};
    if (end > kDropEnd) sent.emplace_back(kDropEnd, end);
    return sent;
}

}  // namespace

TEST_CASE("io.archive_sink's live window: get across live and stored data while the graph records", "[io][archive]") {
    std::mt19937 random(4711);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> reference(kTotal);
    for (float& sample : reference) sample = value(random);
    const Timebase& timebase = Timebase::get(kRate, 31337, Clock::named("device:archive-live-test"));
    FeedScript script;
    for (std::int64_t start = 0; start < kTotal; start += 400) {
        if (start >= kDropStart && start < kDropEnd) continue;
        const std::vector<float> block(reference.begin() + start, reference.begin() + start + 400);
        script.batches.push_back({{0, Item::signal(makeSignal(block, start, timebase))}});
    }
    TempDir dir;
    const std::string path = dir.file("live.sqlite");
    std::mutex mutex;
    std::vector<Read> reads;
    bool firstCommit = true;
    {
        // The reader names the file another way: the live window is found all the same.
        StreamReader reader(dir.file(".") + "/live.sqlite");
        auto subscription = ArchiveTriggers::instance().subscribe(path, "mic", [&](const CommittedInterval& committed) {
            if (firstCommit) {  // only the writer thread reads and writes it
                firstCommit = false;
                const std::shared_ptr<const LiveWindow> live = LiveStreams::instance().find(path, "mic");
                const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
                while (live && live->samples(0, kTotal - 1, kTotal).empty() && std::chrono::steady_clock::now() < deadline) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            }
            Read read;
            read.committed = committed;
            std::int64_t next = 0;
            for (const ArchivedPiece& piece : reader.get("mic", 0, 0, kTotal, StreamPart::Any)) {
                read.contiguous = read.contiguous && piece.start == next;
                next = piece.end();
                if (piece.isGap()) continue;
                if (piece.origin == PieceOrigin::Live) ++read.livePieces;
                read.storedBeforeLive = read.storedBeforeLive && (piece.origin == PieceOrigin::Stored ? piece.end() <= committed.end
                                                                                                      : piece.start >= committed.end);
                const std::span<const float> samples = piece.samples.materialize();
                read.exact = read.exact && piece.samples.timebase() == &timebase && piece.samples.startIndex() == piece.start &&
                             std::equal(samples.begin(), samples.end(), reference.begin() + piece.start);
                if (!read.held.empty() && read.held.back().second == piece.start) read.held.back().second = piece.end();
                else read.held.emplace_back(piece.start, piece.end());
            }
            read.contiguous = read.contiguous && next == kTotal;
            std::lock_guard lock(mutex);
            reads.push_back(std::move(read));
        });
        feedScripts()["signal"] = script;
        const json graph = {
            {"format", "isochron-graph/1"},
            {"nodes",
             {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "signal"}}}},
              {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "mic"}, {"commit_s", 0.1}, {"live_s", 0.5}}}}}},
            {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}}},
        };
        const RunOutcome outcome = runGraph(graph.dump());
        feedScripts().clear();
        REQUIRE(outcome.failures.empty());
    }
    std::lock_guard lock(mutex);
    REQUIRE(reads.size() >= 2);
    for (const Read& read : reads) {
        INFO("read at the commit of [" << read.committed.start << ", " << read.committed.end << "): held " << describe(read.held));
        CHECK(read.exact);
        CHECK(read.contiguous);
        CHECK(read.storedBeforeLive);
        // Everything sent up to some point, at least to what was committed, and nothing stitched
        // over the dropout (the rest of [0, kTotal) is a gap: not sent yet).
        REQUIRE_FALSE(read.held.empty());
        const std::int64_t end = read.held.back().second;
        CHECK(end >= read.committed.end);
        CHECK(read.held == sentBefore(end));
    }
    // The first read (the whole feed handed over, one commit made) crossed from the archive into the live window.
    CHECK(reads.front().held == sentBefore(kTotal));
    CHECK(reads.front().livePieces > 0);
    CHECK(reads.back().held == sentBefore(kTotal));
}
