// The archive's write-ahead log on a small disk, through isochron-run: the log stays about
// kArchiveLogBytes (so a retention keeps the whole archive small, and a disk a few times the retention
// holds it), and a recording whose log could not be folded into the file at its end says so in a
// warning naming the -wal file and what to do. The "small disk" is a file size limit of the run's
// process (prlimit --fsize, per file, no root needed; SIGXFSZ ignored so a write past it fails with
// EFBIG, the refusal a full disk gives): deterministic, where a tmpfs would need root.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <string>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_writer.h"
#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

using namespace isochron;
using isochron::test::CommandResult;
using isochron::test::runProgram;
using isochron::test::TempFolder;

namespace {

constexpr double kRate = 48000;
constexpr std::int64_t kBlock = 4800;  // 0.1 s, 19.2 KB of f32: three pieces per 64 KiB page

/// Writes a graph recording `seconds` of one 48 kHz noise generator into stream "mic" of `archive`
/// with `sinkParams`, and returns its file.
std::string recordingGraph(const TempFolder& folder, const std::string& archive, double seconds, nlohmann::json sinkParams) {
    sinkParams["path"] = archive;
    sinkParams["stream"] = "mic";
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "gen"}, {"type", "generators.signal_generator"},
           {"params", {{"waveform", "noise"}, {"rate", kRate}, {"duration", seconds}, {"block", kBlock}, {"amplitude", 0.1}}}},
          {{"id", "rec"}, {"type", "io.archive_sink"}, {"params", sinkParams}}}},
        {"edges", {{{"from", "gen.out"}, {"to", "rec.in0"}}}},
    };
    const std::string file = folder.file("record-" + std::to_string(static_cast<int>(seconds)) + ".isograph.json");
    std::ofstream(file) << graph.dump();
    return file;
}

/// Runs isochron-run on `graph` with `options` (none by default, not --quiet: its warnings are the point)
/// with no file of it growing past `fileLimit` bytes.
CommandResult runWithFileLimit(long fileLimit, const std::string& graph, const std::string& options = "") {
    return runProgram("trap '' XFSZ; exec prlimit --fsize=" + std::to_string(fileLimit) + " " ISOCHRON_RUN_BINARY, graph + options);
}

}  // namespace

TEST_CASE("archive: with a retention, a recording far larger than the disk runs on (the log is folded in every few MiB)", "[archive]") {
    // 25 MB of samples, keep 2 MB, files may not pass 8 MiB: SQLite's default (a checkpoint every
    // 1000 pages: 64 MiB of 64 KiB pages) overflowed the log at about a third of it.
    constexpr double kSeconds = 130;
    constexpr std::int64_t kKeepBytes = 2'000'000;
    TempFolder folder;
    const std::string archive = folder.file("small.sqlite");
    const CommandResult run = runWithFileLimit(8 << 20, recordingGraph(folder, archive, kSeconds, {{"keep_gb", kKeepBytes / 1e9}}));
    INFO(run.output);
    CHECK(run.status == 0);
    CHECK(run.output.find("node 'rec'") == std::string::npos);  // no failure or warning of the recorder
    ArchiveStore store(archive, ArchiveAccess::Read);
    const std::optional<ArchivedExtent> kept = store.extent("mic");
    REQUIRE(kept);
    CHECK(kept->end == static_cast<std::int64_t>(kSeconds * kRate));
    CHECK(kept->bytes <= kKeepBytes);
    CHECK(kept->bytes > kKeepBytes / 2);
}

TEST_CASE("archive: a recording whose log cannot be folded into the file at its end says to keep X-wal or free space", "[archive]") {
    TempFolder folder;
    const std::string archive = folder.file("unfolded.sqlite");
    // 3.5 MB folded into the file (a first recording), then 2.9 MB more in two transactions (commit_s
    // 10, its maximum): less than a checkpoint's worth, so it stays in the log until the end, when the
    // file would pass 6 MiB.
    const nlohmann::json fewCommits = {{"commit_s", 10}};
    const CommandResult first = runWithFileLimit(6 << 20, recordingGraph(folder, archive, 18, fewCommits));
    INFO(first.output);
    REQUIRE(first.status == 0);
    const CommandResult second = runWithFileLimit(6 << 20, recordingGraph(folder, archive, 33, fewCommits));
    INFO(second.output);
    CHECK(second.status == 0);
    CHECK_THAT(second.output, Catch::Contains("warning: node 'rec': data at risk: archive '" + archive + "': its write-ahead log '" + archive + "-wal'") &&
                                  Catch::Contains("could not be folded into the file") &&
                                  Catch::Contains("keep '" + archive + "-wal' beside '" + archive + "'") && Catch::Contains("or free "));
    // Beside its log the archive holds both recordings.
    ArchiveStore store(archive, ArchiveAccess::Read);
    CHECK(store.coverage("mic", 0) == std::vector<std::pair<std::int64_t, std::int64_t>>{{0, static_cast<std::int64_t>(33 * kRate)}});
}

TEST_CASE("archive: the warning that a recording is whole only with its -wal file is printed under --quiet too, once, and kept in the report",
          "[archive]") {
    // Before, --quiet hid it: a batch or field recorder saw exit status 0 and nothing, and a copy of
    // the .sqlite alone was damaged.
    TempFolder folder;
    const std::string archive = folder.file("unfolded.sqlite");
    const nlohmann::json fewCommits = {{"commit_s", 10}};
    REQUIRE(runWithFileLimit(6 << 20, recordingGraph(folder, archive, 18, fewCommits), " --quiet").status == 0);
    const std::string report = folder.file("report.json");
    const CommandResult second = runWithFileLimit(6 << 20, recordingGraph(folder, archive, 33, fewCommits), " --quiet --report " + report);
    INFO(second.output);
    CHECK(second.status == 0);
    const std::string warning = "warning: node 'rec': data at risk: archive '" + archive + "': its write-ahead log '" + archive + "-wal'";
    CHECK_THAT(second.output, Catch::Contains(warning) && Catch::Contains("keep '" + archive + "-wal' beside '" + archive + "'"));
    CHECK(second.output.find(warning) == second.output.rfind(warning));
    // The report keeps it beside the other warning (the first recording's samples already stored), which --quiet does not print.
    const nlohmann::json written = nlohmann::json::parse(std::ifstream(report));
    const nlohmann::json& warnings = written["nodes"]["rec"]["warnings"];
    CHECK(std::any_of(warnings.begin(), warnings.end(), [](const nlohmann::json& w) {
        return w.get<std::string>().starts_with("data at risk: ") && w.get<std::string>().find("could not be folded into the file") != std::string::npos;
    }));
    CHECK_THAT(second.output, !Catch::Contains("already holds stream 'mic'"));
}

TEST_CASE("archive: the full-disk advice gives the largest keep_gb that fits the disk beside the free space it needs", "[archive]") {
    // The try-out's 12 MB disk: file 8.0 MB (7.5 MB of it this stream, the only one), log 4.6 MB, nothing
    // free: (12.6 - 10) MB of room / 1.07 file bytes per stored byte = 2.4 MB. Before, the message asked
    // only to free 13 MB (more than the disk) and left the retention to be worked out (keep_gb 0.002 ran).
    const ArchiveDiskUse full{.fileBytes = 8'000'000, .logBytes = 4'600'000, .freeBytes = 0};
    const std::string advice = archiveDiskFullAdvice("x.sqlite", full, 7'500'000, 7'500'000);
    CHECK_THAT(advice, Catch::Contains("free space on that disk (at least 13.0 MB)") && Catch::Contains("this stream holds 7.5 MB") &&
                           Catch::Contains("on this disk keep_gb 0.002 at most"));
    // Another stream's 1.5 MB stays: 2.4 - 1.5 MB is less than a megabyte for this one; 2 MB more free
    // space, 2.8 MB.
    CHECK_THAT(archiveDiskFullAdvice("x.sqlite", full, 6'000'000, 7'500'000), Catch::Contains("this disk has no room for it"));
    CHECK_THAT(archiveDiskFullAdvice("x.sqlite", {.fileBytes = 8'000'000, .logBytes = 4'600'000, .freeBytes = 2'000'000}, 6'000'000, 7'500'000),
               Catch::Contains("on this disk keep_gb 0.002 at most"));
    CHECK_THAT(archiveDiskFullAdvice("x.sqlite", full, 2'000'000, 7'500'000), Catch::Contains("this disk has no room for it") && !Catch::Contains("keep_gb 0"));
}
