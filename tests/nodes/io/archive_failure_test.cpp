// io.archive_sink when the disk cannot keep up: a full disk (a child process whose file size limit,
// RLIMIT_FSIZE, the archive outgrows: SQLite's writes fail with EFBIG, reported as "disk I/O error
// (the disk refused a write: ...)"; ENOSPC on a real full disk reads "database or disk is full")
// and a writer that falls behind by more than its queue (another connection holds the archive's write
// lock for the whole run). Both stop the recording with one failure naming the node and the file,
// while the rest of the graph receives every item, and the archive keeps a sample-exact prefix.
#include <catch2/catch.hpp>

#include <csignal>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/archive/archive_store.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr std::int64_t kBlock = 800;

/// The recorded signal: sample i, distinct and exact in f32.
float sampleAt(std::int64_t i) { return static_cast<float>(i % 65536) / 65536.0f - 0.5f; }

/// A feed script of `blocks` blocks of sampleAt() at 8 kHz.
FeedScript knownSignal(int blocks) {
    const Timebase& timebase = Timebase::get(8000);
    FeedScript script;
    for (int block = 0; block < blocks; ++block) {
        std::vector<float> samples(kBlock);
        for (std::int64_t i = 0; i < kBlock; ++i) samples[static_cast<std::size_t>(i)] = sampleAt(block * kBlock + i);
        script.batches.push_back({{0, Item::signal(makeSignal(samples, block * kBlock, timebase))}});
    }
    return script;
}

/// Graph JSON: test.feed "feed" ("signal" script) recorded by io.archive_sink "rec" (`sinkParams`
/// plus the path) and collected by test.collect "kept".
std::string recordBesideCollector(const std::string& path, json sinkParams) {
    sinkParams["path"] = path;
    sinkParams["stream"] = "mic";
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "signal"}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", sinkParams}},
          {{"id", "kept"}, {"type", "test.collect"}, {"params", {{"name", "kept"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}, {{"from", "feed.out0"}, {"to", "kept.in0"}}}},
    };
    return graph.dump();
}

/// What the archive at `path` holds of stream "mic": a sample-exact, gapless prefix from 0; returns its end.
std::int64_t checkExactPrefix(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Read);
    if (!store.stream("mic")) return 0;
    const std::int64_t end = store.storedEnd("mic").value_or(0);
    std::int64_t next = 0;
    for (const ArchivedPiece& piece : store.get("mic", 0, 0, end)) {
        REQUIRE_FALSE(piece.isGap());
        REQUIRE(piece.start == next);
        const std::span<const float> samples = piece.samples.materialize();
        for (std::int64_t i = 0; i < piece.length; ++i) REQUIRE(samples[static_cast<std::size_t>(i)] == sampleAt(piece.start + i));
        next = piece.end();
    }
    return end;
}

}  // namespace

TEST_CASE("io.archive_sink on a full disk stops recording, naming node and file; the graph keeps running", "[io][archive]") {
    constexpr int kBlocks = 600;  // 1.9 MB of samples, beyond the child's 1 MiB file size limit (the empty archive's tables take 6 64 KiB pages)
    TempDir dir;
    const std::string path = dir.file("full.sqlite");
    feedScripts()["signal"] = knownSignal(kBlocks);
    const std::string graph = recordBesideCollector(path, {{"commit_s", 0.05}});
    int report[2];
    REQUIRE(pipe(report) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The disk is "full" at 1 MiB per file: write() fails with EFBIG instead of raising SIGXFSZ.
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{1 << 20, 1 << 20};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(2);
        close(report[0]);
        std::string text;
        try {
            const RunOutcome outcome = runGraph(graph, "df");
            text = std::to_string(outcome.completed) + "\n" + std::to_string(collections()["kept"].items[0].size()) + "\n";
            for (const std::string& failure : outcome.failures) text += failure + "\n";
        } catch (const std::exception& e) {
            text = std::string("exception: ") + e.what() + "\n";
        }
        const bool sent = write(report[1], text.data(), text.size()) == static_cast<ssize_t>(text.size());
        _exit(sent ? 0 : 3);
    }
    close(report[1]);
    std::string text;
    char buffer[512];
    for (ssize_t got; (got = read(report[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(got));
    close(report[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    feedScripts().clear();
    INFO("child reported: " << text);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);

    std::vector<std::string> lines;
    for (std::size_t at = 0, next; (next = text.find('\n', at)) != std::string::npos; at = next + 1) lines.push_back(text.substr(at, next - at));
    REQUIRE(lines.size() == 3);  // completed, items kept, exactly one failure
    CHECK(lines[0] == "1");
    CHECK(lines[1] == std::to_string(kBlocks));
    CHECK_THAT(lines[2], Catch::StartsWith("node 'rec'") && Catch::Contains(path) &&
                             (Catch::Contains("disk is full") || Catch::Contains("the disk refused a write")) && Catch::Contains("recording stopped"));

    // Without the limit the archive opens, and holds a sample-exact prefix of what was given, not all of it.
    const std::int64_t end = checkExactPrefix(path);
    CHECK(end < kBlocks * kBlock);
}

TEST_CASE("io.archive_sink whose writer falls behind by more than its queue stops recording; the graph keeps running", "[io][archive]") {
    constexpr int kBlocks = 40;  // 128 KB of samples through a 16 KiB queue
    TempDir dir;
    const std::string path = dir.file("slow.sqlite");
    // Another connection holds the write lock for the whole run: the sink's writer thread cannot
    // insert anything, so its queue only grows (it gives up after SQLite's 5 s busy timeout, long after
    // the feed, which needs no disk, has sent everything).
    ArchiveStore blocker(path, ArchiveAccess::Record);
    blocker.appendItem(blocker.openStream({.name = "blocker", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = 1, .sampleType = "json"}), 0, 1, "{}");
    feedScripts()["signal"] = knownSignal(kBlocks);
    const RunOutcome outcome = runGraph(recordBesideCollector(path, {{"queue_mb", 1.0 / 64}}));
    feedScripts().clear();
    blocker.commit();
    CHECK(outcome.completed);
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures[0], Catch::StartsWith("node 'rec'") && Catch::Contains(path) && Catch::Contains("behind") &&
                                        Catch::Contains("recording stopped"));
    const std::vector<Item>& kept = collections()["kept"].items[0];
    CHECK(kept.size() == kBlocks);
    CHECK(contiguousFrom(kept, 0));
    collections().clear();
    CHECK(checkExactPrefix(path) < kBlocks * kBlock);
}
