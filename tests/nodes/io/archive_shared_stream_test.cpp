// Two io.archive_sink runs recording one stream of one file at the same time (issue 13, S2): two
// isochron-run processes replaying the same WAV. Both sinks start (activate) before either has
// stored anything, so the check at the start finds nothing; the commits must then keep each sample
// once. Before the fix the second stored every piece again, overlapping the first's.
#include <catch2/catch.hpp>

#include <string>

#include "engine/archive/archive_store.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr std::int64_t kBlock = 800;
constexpr int kBlocks = 20;

/// A feed script of `kBlocks` blocks of a ramp at 8 kHz.
FeedScript ramp() {
    const Timebase& timebase = Timebase::get(8000);
    FeedScript script;
    for (int block = 0; block < kBlocks; ++block) {
        std::vector<float> samples(kBlock);
        for (std::int64_t i = 0; i < kBlock; ++i) samples[static_cast<std::size_t>(i)] = static_cast<float>(block * kBlock + i);
        script.batches.push_back({{0, Item::signal(makeSignal(samples, block * kBlock, timebase))}});
    }
    return script;
}

/// test.feed "feed" (script "ramp") recorded by io.archive_sink "rec" into stream "mic" of `path`.
ValidatedGraph recordRamp(const std::string& path) {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "ramp"}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "mic"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}}},
    };
    return validateGraph(parseGraph(graph.dump()), testRegistry());
}

}  // namespace

TEST_CASE("two io.archive_sink runs of one stream, started together, store each sample once; the second warns naming file and stream",
          "[io][archive]") {
    TempDir dir;
    const std::string path = dir.file("twice.sqlite");
    feedScripts()["ramp"] = ramp();
    const ValidatedGraph graph = recordRamp(path);
    // The second run's sink is active (it has read the stream's stored end: nothing) before the first
    // run records anything, as when two processes start together.
    Engine second(graph, parseSchedulerText("df"));
    {
        Engine first(graph, parseSchedulerText("df"));
        const RunOutcome outcome = first.run();
        CHECK(outcome.completed);
        CHECK(outcome.failures.empty());
        CHECK(first.findNode("rec")->warnings.empty());
    }
    const RunOutcome outcome = second.run();
    feedScripts().clear();
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    const std::vector<std::string>& warnings = second.findNode("rec")->warnings;
    // One warning, given at the commit that first dropped something (how much is known by then
    // depends on the writer thread's pace; the first interval starts where the recording did).
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("archive '" + path + "'") && Catch::Contains("stream 'mic'") && Catch::Contains("another recorder") &&
                                Catch::Contains("stored [0 s, "));

    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<ArchivedExtent> extent = store.extent("mic");
    REQUIRE(extent);
    CHECK(extent->samples == kBlocks * kBlock);  // before the fix: twice as many, in overlapping pieces
    CHECK(store.coverage("mic", 0) == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, kBlocks * kBlock}});
    std::int64_t next = 0;
    for (const ArchivedPiece& piece : store.get("mic", 0, 0, kBlocks * kBlock)) {
        REQUIRE(piece.start == next);
        const std::span<const float> samples = piece.samples.materialize();
        for (std::int64_t i = 0; i < piece.length; ++i) REQUIRE(samples[static_cast<std::size_t>(i)] == static_cast<float>(piece.start + i));
        next = piece.end();
    }
}
