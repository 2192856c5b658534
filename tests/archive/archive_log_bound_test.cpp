// The archive's write-ahead log on a small disk: it stays about kArchiveLogBytes (so a retention keeps
// the whole archive small, and a disk a few times the retention holds it), and a recording whose log
// could not be folded into the file at its end says so, naming the -wal file and what to do. The
// "small disk" is a child process's file size limit (RLIMIT_FSIZE, per file, no root needed): a write
// past it fails with EFBIG, the same refusal a full disk gives, and deterministic.
#include <catch2/catch.hpp>

#include <csignal>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_writer.h"
#include "tests/support/test_files.h"

using namespace isochron;
using isochron::test::TempFolder;

namespace {

constexpr double kRate = 48000;
constexpr std::int64_t kBlock = 4800;  // 0.1 s, 19.2 KB of f32

/// Sample i of the recorded signal: distinct and exact in f32.
float sampleAt(std::int64_t i) { return static_cast<float>(i % 65536) / 65536.0f - 0.5f; }

SigSeg<float> block(std::int64_t start) {
    std::vector<float> samples(kBlock);
    for (std::int64_t i = 0; i < kBlock; ++i) samples[static_cast<std::size_t>(i)] = sampleAt(start + i);
    return SigSeg<float>::copyOf(samples, start, &Timebase::get(kRate));
}

/// Runs `work` in a child process whose files may not grow past `fileLimit` bytes; returns what it
/// returned (or "exception: ..."), sent back through a pipe.
std::string inChildWithFileLimit(rlim_t fileLimit, const std::function<std::string()>& work) {
    int report[2];
    REQUIRE(pipe(report) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN);  // write() fails with EFBIG instead
        const rlimit limit{fileLimit, fileLimit};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(2);
        close(report[0]);
        std::string text;
        try {
            text = work();
        } catch (const std::exception& e) {
            text = std::string("exception: ") + e.what();
        }
        const bool sent = write(report[1], text.data(), text.size()) == static_cast<ssize_t>(text.size());
        _exit(sent ? 0 : 3);
    }
    close(report[1]);
    std::string text;
    char buffer[1024];
    for (ssize_t got; (got = read(report[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(got));
    close(report[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    INFO("child reported: " << text);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return text;
}

/// Records samples [from, to) of stream "mic" into `path` with `options` (the pusher waits for the
/// disk); returns the writer's problem, or "" with close()'s warning after "closed: ".
std::string record(const std::string& path, std::int64_t from, std::int64_t to, ArchiveWriter::Options options) {
    options.waitWhenBehind = [] { return true; };
    ArchiveWriter writer(std::make_unique<ArchiveStore>(path, ArchiveAccess::Record), {.name = "mic", .rateHz = kRate}, std::move(options));
    for (std::int64_t at = from; at < to; at += kBlock) {
        if (!writer.pushSamples(0, at, block(at))) break;
    }
    writer.flush();
    if (std::optional<std::string> problem = writer.problem()) return *problem;
    return "closed: " + writer.close().value_or("");
}

/// "" when the archive at `path` holds stream "mic" exactly as sampleAt() over [from, to), gapless,
/// else the first difference. Run in a child process (inChildWithFileLimit): reading an archive in a
/// process that earlier read another, since deleted, file of the same inode number returned wrong
/// samples here (seen only so, not under valgrind; see the arch12 handoff), which is not what these
/// tests are about.
std::string heldExactly(const std::string& path, std::int64_t from, std::int64_t to) {
    ArchiveStore store(path, ArchiveAccess::Read);
    std::int64_t next = from;
    for (const ArchivedPiece& piece : store.get("mic", 0, from, to)) {
        if (piece.isGap() || piece.start != next) return "a gap or a jump at sample " + std::to_string(next);
        const std::span<const float> samples = piece.samples.materialize();
        for (std::int64_t i = 0; i < piece.length; ++i) {
            if (samples[static_cast<std::size_t>(i)] != sampleAt(piece.start + i)) return "sample " + std::to_string(piece.start + i) + " differs";
        }
        next = piece.end();
    }
    return next == to ? "" : "stored up to " + std::to_string(next);
}

}  // namespace

TEST_CASE("archive: with a retention, a recording far larger than the disk runs on (the log is folded in every few MiB)", "[archive]") {
    // 24 MB of samples, keep 2 MB, files may not pass 8 MiB: SQLite's default (a checkpoint every
    // 1000 pages: 64 MiB of 64 KiB pages) overflowed the log at about a third of it.
    constexpr std::int64_t kSamples = 6'000'000 / kBlock * kBlock;
    constexpr std::int64_t kKeepBytes = 2'000'000;
    TempFolder folder;
    const std::string path = folder.file("small.sqlite");
    const std::string outcome = inChildWithFileLimit(8 << 20, [&] {
        return record(path, 0, kSamples, {.commitNs = 500'000'000, .keepBytes = kKeepBytes});
    });
    CHECK(outcome == "closed: ");
    // Read in a process of its own: see heldExactly.
    CHECK(inChildWithFileLimit(RLIM_INFINITY, [&] {
              ArchiveStore store(path, ArchiveAccess::Read);
              const std::optional<ArchivedExtent> kept = store.extent("mic");
              if (!kept) return std::string("nothing stored");
              if (kept->end != kSamples) return "stored up to " + std::to_string(kept->end);
              if (kept->bytes > kKeepBytes) return "keeps " + std::to_string(kept->bytes) + " bytes";
              return heldExactly(path, kept->start, kSamples);
          }) == "");
}

TEST_CASE("archive: a recording whose log cannot be folded into the file at its end says to keep X-wal or free space", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("unfolded.sqlite");
    // 3.4 MB folded into the file (a first recording), then 2.9 MB in one transaction: less than a
    // checkpoint's worth, so it stays in the log until the end, when the file would pass 6 MiB.
    constexpr std::int64_t kFirst = 180 * kBlock, kSecond = kFirst + 150 * kBlock;
    const ArchiveWriter::Options oneCommit{.commitNs = 3600'000'000'000};
    const std::string outcome = inChildWithFileLimit(6 << 20, [&] {
        const std::string first = record(path, 0, kFirst, oneCommit);
        if (first != "closed: ") return "first recording: " + first;
        return record(path, kFirst, kSecond, oneCommit);
    });
    CHECK_THAT(outcome, Catch::StartsWith("closed: archive '" + path + "': its write-ahead log '" + path + "-wal'") &&
                            Catch::Contains("could not be folded into the file") && Catch::Contains("keep '" + path + "-wal' beside '" + path + "'") &&
                            Catch::Contains("or free "));
    // Beside its log the archive is whole.
    CHECK(inChildWithFileLimit(RLIM_INFINITY, [&] { return heldExactly(path, 0, kSecond); }) == "");
}
