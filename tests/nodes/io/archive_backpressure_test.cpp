// io.archive_sink whose writer is behind by more than queue_mb (issue 13, S3). An unpaced import (a
// source at pace 0) waits for the writer, so the archive holds every sample: before the fix it stopped
// recording with "the disk is slower than the stream". A paced run stops recording with a message
// giving the rates and what to change, while the rest of the graph finishes. A stop request ends the
// import's wait.
//
// The writer is behind by construction: a commit trigger holds its thread (nothing commits meanwhile)
// until the test has seen more than the queue's bound waiting in the sink's live window.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_triggers.h"
#include "engine/archive/live_streams.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/commit_gate.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr std::int64_t kSamples = 32000;                // 4 s at 8 kHz, 128 KB of f32
constexpr std::size_t kQueueBytes = std::size_t{1} << 14;  // queue_mb 1/64: 16 KiB, five 800-sample blocks
constexpr auto kBound = std::chrono::seconds(60);

/// A signal generator "gen" (8 kHz, 4 s, 800-sample blocks, at `pace`) recorded by io.archive_sink
/// "rec" (stream "gen", queue_mb 1/64, no live window beyond the uncommitted) and collected by "kept".
ValidatedGraph generatorIntoArchive(const std::string& path, double pace) {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "gen"},
           {"type", "generators.signal_generator"},
           {"params", {{"waveform", "noise"}, {"rate", 8000.0}, {"duration", 4.0}, {"block", 800}, {"pace", pace}, {"max_lag", 3600.0}}}},
          {{"id", "rec"},
           {"type", "io.archive_sink"},
           {"params", {{"path", path}, {"stream", "gen"}, {"queue_mb", 1.0 / 64}, {"live_s", 0.0}}}},
          {{"id", "kept"}, {"type", "test.collect"}, {"params", {{"name", "kept"}}}}}},
        {"edges", {{{"from", "gen.out"}, {"to", "rec.in0"}}, {{"from", "gen.out"}, {"to", "kept.in0"}}}},
    };
    return validateGraph(parseGraph(graph.dump()), testRegistry());
}

/// One run on a thread of its own: the engine is built, run and deactivated there.
struct BackgroundRun {
    std::promise<Engine*> built;
    std::promise<RunOutcome> ran;
    std::promise<std::vector<std::string>> recorderWarnings;
    std::thread thread;

    explicit BackgroundRun(const ValidatedGraph& graph) {
        thread = std::thread([this, &graph] {
            Engine engine(graph, parseSchedulerText("df"));
            built.set_value(&engine);
            ran.set_value(engine.run());
            for (NodeContext* node : engine.nodes()) {
                if (node->op) node->op->deactivate();  // the writer joins here: after the gate's release
            }
            recorderWarnings.set_value(engine.findNode("rec")->warnings);
        });
    }
    ~BackgroundRun() { thread.join(); }
};

/// Waits until the writer is held with more than the queue's bound waiting in the sink's live window
/// (the sink then finds its queue full) or `runEnded` is ready. Returns whether the run ended first.
bool awaitFullQueueOrEnd(CommitGate& gate, const std::string& path, std::future<RunOutcome>& runEnded) {
    const auto deadline = std::chrono::steady_clock::now() + kBound;
    while (std::chrono::steady_clock::now() < deadline) {
        if (runEnded.wait_for(std::chrono::milliseconds(1)) == std::future_status::ready) return true;
        const std::shared_ptr<const LiveWindow> window = LiveStreams::instance().find(path, "gen");
        if (gate.isHeld() && window && window->heldBytes() > kQueueBytes) return false;
    }
    FAIL("neither a full queue nor the end of the run within " << kBound.count() << " s");
    return true;
}

/// Every sample of [0, kSamples) is stored once and equals what the collector received.
void checkEverySampleStored(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<ArchivedExtent> extent = store.extent("gen");
    REQUIRE(extent);
    CHECK(extent->samples == kSamples);
    CHECK(store.coverage("gen", 0) == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, kSamples}});
    const std::vector<float> kept = concatenated(collections()["kept"].items[0]);
    REQUIRE(kept.size() == static_cast<std::size_t>(kSamples));
    for (const ArchivedPiece& piece : store.get("gen", 0, 0, kSamples)) {
        REQUIRE_FALSE(piece.isGap());
        const std::span<const float> samples = piece.samples.materialize();
        REQUIRE(std::equal(samples.begin(), samples.end(), kept.begin() + piece.start));
    }
}

}  // namespace

TEST_CASE("an unpaced import into io.archive_sink waits for a writer that is behind: every sample is stored", "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("import.sqlite");
    CommitGate gate;
    gate.holding = true;  // from the first commit on
    const std::shared_ptr<void> subscription = ArchiveTriggers::instance().subscribe(path, "gen", [&](const CommittedInterval& interval) { gate.trigger(interval); });
    const ValidatedGraph graph = generatorIntoArchive(path, 0);
    BackgroundRun run(graph);
    const GateReleaser releaser{gate};
    std::future<RunOutcome> ended = run.ran.get_future();
    // Before the fix the queue overflowed and recording stopped: the run ended on its own.
    const bool endedWhileBehind = awaitFullQueueOrEnd(gate, path, ended);
    CHECK_FALSE(endedWhileBehind);
    gate.release();
    const RunOutcome outcome = ended.get();
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    CHECK(run.recorderWarnings.get_future().get().empty());
    checkEverySampleStored(path);
    collections().clear();
}

TEST_CASE("a paced run whose io.archive_sink writer is behind stops recording, saying the rates and what to do; the graph finishes",
          "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("paced.sqlite");
    CommitGate gate;
    gate.holding = true;  // from the first commit on
    const std::shared_ptr<void> subscription = ArchiveTriggers::instance().subscribe(path, "gen", [&](const CommittedInterval& interval) { gate.trigger(interval); });
    const ValidatedGraph graph = generatorIntoArchive(path, 100);  // 4 s in 40 ms: paced, so the graph must not wait
    BackgroundRun run(graph);
    const GateReleaser releaser{gate};
    std::future<RunOutcome> ended = run.ran.get_future();
    awaitFullQueueOrEnd(gate, path, ended);
    gate.release();
    const RunOutcome outcome = ended.get();
    CHECK(outcome.completed);
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures[0], Catch::StartsWith("node 'rec'") && Catch::Contains(path) && Catch::Contains("stream 'gen'") &&
                                        Catch::Contains("came in at") && Catch::Contains("MB/s") && Catch::Contains("written at") &&
                                        Catch::Contains("recording stopped") && Catch::Contains("Raise queue_mb") && Catch::Contains("pace") &&
                                        Catch::Contains("commit_s"));
    const std::vector<Item>& kept = collections()["kept"].items[0];
    CHECK(concatenated(kept).size() == static_cast<std::size_t>(kSamples));
    CHECK(contiguousFrom(kept, 0));
    collections().clear();
}

TEST_CASE("a stop request ends an unpaced import's wait for its io.archive_sink writer", "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("stopped.sqlite");
    CommitGate gate;
    gate.holding = true;  // from the first commit on
    const std::shared_ptr<void> subscription = ArchiveTriggers::instance().subscribe(path, "gen", [&](const CommittedInterval& interval) { gate.trigger(interval); });
    const ValidatedGraph graph = generatorIntoArchive(path, 0);
    BackgroundRun run(graph);
    const GateReleaser releaser{gate};
    Engine* engine = run.built.get_future().get();
    std::future<RunOutcome> ended = run.ran.get_future();
    const bool endedWhileBehind = awaitFullQueueOrEnd(gate, path, ended);
    REQUIRE_FALSE(endedWhileBehind);
    // The engine thread waits in the sink's push and the writer stays held until after the run
    // returned: only the stop can end the wait.
    engine->requestStop();
    const bool returned = ended.wait_for(kBound) == std::future_status::ready;
    CHECK(returned);
    gate.release();
    const RunOutcome outcome = ended.get();
    CHECK(outcome.stopped);
    CHECK(outcome.failures.empty());
    collections().clear();
}
