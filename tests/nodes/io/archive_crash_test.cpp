// io.archive_sink killed with SIGKILL mid-stream: a child process records a known signal under the
// df scheduler (an emitted item reaches the sink before emit returns), reports how many samples the
// sink has been given, and stalls; the parent kills it there. The archive must open cleanly and hold,
// sample-exact and without holes, all but at most the last second of what the sink was given, and
// running totals equal to a scan of its rows.
// The sink's writer thread commits behind the engine: the child reports once a reader of the file
// sees the commits within one second of what was given (as it would at real-time pace), so the kill
// lands while the writer holds the rest of the data in an open transaction or its queue.
#include <catch2/catch.hpp>

#include <csignal>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/archive/archive_store.h"
#include "engine/operators/operator.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/archive_rows.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr double kRate = 8000;
constexpr std::int64_t kBlock = 400;
constexpr std::int64_t kBlocks = 61;  // 3.05 s

/// The recorded signal: sample i, distinct over the test's length and exact in f32.
float sampleAt(std::int64_t i) { return static_cast<float>(i % 65536) / 65536.0f - 0.5f; }

/// Emits kBlocks blocks of sampleAt() in one produce() call, writes the count of samples emitted to
/// file descriptor `report_fd`, then never returns (it waits to be killed).
class EmitThenStall final : public Operator {
protected:
    SourceStatus onProduce() override {
        const Timebase* timebase = &Timebase::get(kRate);
        for (std::int64_t block = 0; block < kBlocks; ++block) {
            SigSeg<float> samples = SigSeg<float>::allocate(kBlock, block * kBlock, timebase);
            for (std::int64_t i = 0; i < kBlock; ++i) samples.writable()[static_cast<std::size_t>(i)] = sampleAt(block * kBlock + i);
            emit(0, Item::signal(std::move(samples)));
        }
        const std::int64_t given = kBlocks * kBlock;
        // Wait (bounded) for the writer thread to have committed up to one second before `given`.
        for (int attempt = 0; attempt < 60000; ++attempt) {
            ArchiveStore reader(params().getString("path"), ArchiveAccess::Read);
            if (reader.stream("mic") && reader.storedEnd("mic").value_or(0) >= given - static_cast<std::int64_t>(kRate)) break;
            usleep(1000);
        }
        const std::string report = std::to_string(given) + "\n";
        if (write(static_cast<int>(params().getInt("report_fd")), report.data(), report.size()) != static_cast<ssize_t>(report.size())) _exit(3);
        for (;;) pause();
    }
};

/// Adds "archive_test.emit_then_stall" to the test registry (once).
void registerEmitThenStall() {
    static const bool registered = [] {
        OperatorDescriptor d;
        d.typeName = "archive_test.emit_then_stall";
        d.category = "test";
        d.summary = "Emits a known signal, reports how much, then stalls (tests only)";
        d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "samples"}};
        d.params = {ParamSpec{"report_fd", ParamKind::Int, std::int64_t{-1}, {}, {}, "", "file descriptor the count is written to"},
                    ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "the archive being recorded"}};
        d.create = [] { return std::make_unique<EmitThenStall>(); };
        testRegistry().add(std::move(d));
        return true;
    }();
    (void)registered;
}

}  // namespace

TEST_CASE("io.archive_sink killed with SIGKILL leaves an archive holding all but at most the last second", "[io][archive]") {
    registerEmitThenStall();
    TempDir dir;
    const std::string path = dir.file("killed.sqlite");
    int report[2];
    REQUIRE(pipe(report) == 0);
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "src"}, {"type", "archive_test.emit_then_stall"}, {"params", {{"report_fd", report[1]}, {"path", path}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", {{"path", path}, {"stream", "mic"}, {"commit_s", 0.5}}}}}},
        {"edges", {{{"from", "src.out"}, {"to", "rec.in0"}}}},
    };

    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(report[0]);
        try {
            runGraph(graph.dump(), "df");
        } catch (...) {
        }
        _exit(2);  // only reached if the graph did not stall
    }
    close(report[1]);
    std::string text;
    char buffer[64];
    for (ssize_t got; text.find('\n') == std::string::npos && (got = read(report[0], buffer, sizeof buffer)) > 0;) {
        text.append(buffer, static_cast<std::size_t>(got));
    }
    close(report[0]);
    kill(child, SIGKILL);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);
    REQUIRE_FALSE(text.empty());
    const std::int64_t given = std::stoll(text);
    REQUIRE(given == kBlocks * kBlock);

    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<std::int64_t> end = store.storedEnd("mic");
    REQUIRE(end.has_value());
    CHECK(*end <= given);
    CHECK(*end >= given - static_cast<std::int64_t>(kRate));  // at most the last second lost
    const std::vector<ArchivedPiece> pieces = store.get("mic", 0, 0, *end);
    std::int64_t next = 0;
    for (const ArchivedPiece& piece : pieces) {
        REQUIRE_FALSE(piece.isGap());
        REQUIRE(piece.start == next);
        std::vector<float> expected;
        for (std::int64_t i = piece.start; i < piece.end(); ++i) expected.push_back(sampleAt(i));
        const std::span<const float> samples = piece.samples.materialize();
        REQUIRE(std::equal(samples.begin(), samples.end(), expected.begin(), expected.end()));
        next = piece.end();
    }
    CHECK(next == *end);
    // The running totals went in with each commit's rows: what the kill cut off is in neither.
    checkTotalsMatchRows(path);
}
