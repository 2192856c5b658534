// Two processes creating one NEW archive at the same time, each recording a stream of its own (the
// tryout's Problem 1: two isochron-run processes, or two ranks of one mpirun job, started together on
// a file that did not exist). Before the fix one of them often lost its whole recording: "database is
// locked; not recording", or "'x.sqlite' is not a stream archive (a SQLite database holding table
// streams, ...)" when it read the file's version before the other committed its tables and the
// tables after, or it removed the file the other had just created.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "tests/support/test_files.h"

using namespace isochron;

namespace {

constexpr int kRounds = 40;
constexpr int kRecorders = 3;
constexpr std::int64_t kSamples = 4800;

/// In a child: waits until `gate` closes, records kSamples into stream "s<index>" of `path`; exits 0,
/// or 1 after printing why.
[[noreturn]] void recordInChild(const std::string& path, int index, int gate) {
    char byte = 0;
    while (read(gate, &byte, 1) > 0) {}
    try {
        ArchiveStore store(path, ArchiveAccess::Record);
        const std::int64_t id = store.openStream({.name = "s" + std::to_string(index), .rateHz = 48000, .node = "rec"});
        const std::vector<float> samples(kSamples, 0.25f * static_cast<float>(index));
        store.appendSamples(id, 0, 0, samples);
        store.commit();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "recorder %d: %s\n", index, e.what());
        _exit(1);
    }
    _exit(0);
}

}  // namespace

TEST_CASE("processes creating one new archive at the same time each keep their whole stream", "[archive]") {
    test::TempFolder folder;
    const std::string path = folder.file("new.sqlite");
    int failedRounds = 0;
    for (int round = 0; round < kRounds; ++round) {
        for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
        int gate[2];
        REQUIRE(pipe(gate) == 0);
        std::vector<pid_t> children;
        for (int index = 0; index < kRecorders; ++index) {
            const pid_t child = fork();
            REQUIRE(child >= 0);
            if (child == 0) {
                close(gate[1]);
                recordInChild(path, index, gate[0]);
            }
            children.push_back(child);
        }
        close(gate[0]);
        close(gate[1]);  // every child starts now
        bool allRecorded = true;
        for (const pid_t child : children) {
            int status = 0;
            waitpid(child, &status, 0);
            allRecorded = allRecorded && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        }
        ArchiveStore store(path, ArchiveAccess::Read);
        for (int index = 0; index < kRecorders; ++index) {
            const std::optional<ArchivedExtent> extent = store.stream("s" + std::to_string(index)) ? store.extent("s" + std::to_string(index)) : std::nullopt;
            allRecorded = allRecorded && extent && extent->samples == kSamples;
        }
        if (!allRecorded) ++failedRounds;
    }
    CHECK(failedRounds == 0);
}
