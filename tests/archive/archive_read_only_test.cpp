// Reading an archive never writes it nor leaves files beside it that its owner could not use, and a
// recorder that cannot write says why and what to do (the tryout's Problems 5 and 8, and its full
// disk). Before: an archive on a read-only filesystem could not even be listed ("unable to open
// database file"); a reader running as another user failed in a folder it could not write ("attempt
// to write a readonly database") and elsewhere left -wal/-shm files of its own, after which the owner
// could not record; a full disk said "database or disk is full; recording stopped (in process)".
// The read-only filesystem and the full disk are made in a user and mount namespace (unshare -rm),
// another user with setpriv when the tests run as root; the cases are skipped where neither works.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Whether this system lets a test make a mount namespace of its own (unshare -rm).
bool namespacesWork() { return runProgram("unshare", "-rm true").status == 0; }

/// `command` (no single quotes) run with `folder` remounted read-only for it alone.
CommandResult onReadOnlyFolder(const std::string& folder, const std::string& command) {
    return runProgram("unshare", "-rm sh -c 'mount --bind " + folder + " " + folder + " && mount -o remount,bind,ro " + folder + " && " + command + "'");
}

/// An archive at `path` with stream "array" (2 channels, 1 s at 8 kHz) and stream "events" (3 items).
void writeArchive(const std::string& path) {
    ArchiveStore store(path, ArchiveAccess::Record);
    const std::int64_t array = store.openStream({.name = "array", .rateHz = 8000, .channels = 2, .node = "rec"});
    for (int channel = 0; channel < 2; ++channel) store.appendSamples(array, channel, 0, std::vector<float>(8000, 0.25f * (channel + 1)));
    const std::int64_t events = store.openStream({.name = "events", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = 8000, .sampleType = "json", .node = "det"});
    for (int i = 0; i < 3; ++i) store.appendItem(events, 1000 * i, 10, R"({"kind":"event","label":"e","score":1,"attributes":{}})");
    store.commit();
}

bool sideFilesExist(const std::string& path) { return std::filesystem::exists(path + "-wal") || std::filesystem::exists(path + "-shm"); }

/// The owner of `path`, or -1.
long long ownerOf(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 ? static_cast<long long>(info.st_uid) : -1;
}

constexpr const char* kNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";

}  // namespace

TEST_CASE("an archive on a read-only filesystem can be listed, read, exported and replayed; recording into it says why not", "[archive]") {
    if (!namespacesWork()) {
        WARN("skipped: unshare -rm does not work here");
        return;
    }
    TempFolder media, work;
    const std::string archive = media.file("ro.sqlite");
    writeArchive(archive);
    const std::string tool = ISOCHRON_ARCHIVE_BINARY, runner = ISOCHRON_RUN_BINARY;
    const CommandResult listed = onReadOnlyFolder(media.path.string(), tool + " ls " + archive);
    INFO(listed.output);
    CHECK(listed.status == 0);
    CHECK_THAT(listed.output, Catch::Contains("array") && Catch::Contains("events"));
    CHECK(onReadOnlyFolder(media.path.string(), tool + " info " + archive + " array").status == 0);
    const CommandResult got = onReadOnlyFolder(media.path.string(), tool + " get " + archive + " events");
    CHECK(got.status == 0);
    CHECK_THAT(got.output, Catch::Contains("\"label\":\"e\""));
    const std::string wav = work.file("out.wav");
    CHECK(onReadOnlyFolder(media.path.string(), tool + " export " + archive + " array --format wav --output " + wav).status == 0);
    CHECK(std::filesystem::file_size(wav) > 64000);
    std::ofstream(work.file("replay.isograph.json"))
        << R"({"format": "isochron-graph/1", "nodes": [)"
        << R"({"id": "replay", "type": "io.archive_source", "params": {"path": ")" << archive << R"(", "stream": "array", "channels": 0}},)"
        << R"({"id": "out", "type": "io.wav_file_sink", "params": {"path": ")" << work.file("replayed.wav") << R"(", "channels": 2}}],)"
        << R"("edges": [{"from": "replay.out*", "to": "out.in*"}]})";
    const CommandResult replayed = onReadOnlyFolder(media.path.string(), runner + " " + work.file("replay.isograph.json") + " --quiet");
    INFO(replayed.output);
    CHECK(replayed.status == 0);
    CHECK(std::filesystem::exists(work.file("replayed.wav")));
    std::ofstream(work.file("rec.isograph.json"))
        << R"({"format": "isochron-graph/1", "nodes": [)"
        << R"({"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 1}},)"
        << R"({"id": "rec", "type": "io.archive_sink", "params": {"path": ")" << archive << R"(", "stream": "more"}}],)"
        << R"("edges": [{"from": "gen.out", "to": "rec.in0"}]})";
    const CommandResult refused = onReadOnlyFolder(media.path.string(), runner + " " + work.file("rec.isograph.json") + " --check");
    CHECK(refused.status == 1);
    CHECK_THAT(refused.output, Catch::Contains("is on a read-only filesystem") && Catch::Contains("copy this archive"));
    CHECK_FALSE(sideFilesExist(archive));
}

TEST_CASE("another user reads an archive without write access and leaves no file its owner cannot use", "[archive]") {
    if (geteuid() != 0 || runProgram("setpriv", "--reuid=65534 --regid=65534 --clear-groups true").status != 0) {
        WARN("skipped: needs root and setpriv to read as user nobody");
        return;
    }
    // A checkout in a folder closed to other users (mktemp -d makes one) keeps its programs from nobody.
    if (runProgram(kNobody + std::string(ISOCHRON_ARCHIVE_BINARY), "--help").status != 0) {
        WARN("skipped: user nobody cannot run " ISOCHRON_ARCHIVE_BINARY " (the checkout's folder is closed to other users)");
        return;
    }
    TempFolder folder;
    const std::string archive = folder.file("own.sqlite");
    writeArchive(archive);
    REQUIRE(chmod(folder.path.c_str(), 0755) == 0);  // nobody may read, not create files
    REQUIRE(chmod(archive.c_str(), 0644) == 0);
    const std::string tool = ISOCHRON_ARCHIVE_BINARY;
    const CommandResult listed = runProgram(kNobody + tool, "ls " + archive);
    INFO(listed.output);
    CHECK(listed.status == 0);
    CHECK_THAT(listed.output, Catch::Contains("array"));
    CHECK(runProgram(kNobody + tool, "get " + archive + " events").status == 0);
    CHECK_FALSE(sideFilesExist(archive));

    REQUIRE(chmod(folder.path.c_str(), 0777) == 0);  // a shared folder: nobody could create files there
    CHECK(runProgram(kNobody + tool, "info " + archive + " array").status == 0);
    for (const char* suffix : {"-wal", "-shm"}) {
        INFO(suffix);
        CHECK(ownerOf(archive + suffix) != 65534);
    }
    // The owner records on, into the same file.
    ArchiveStore store(archive, ArchiveAccess::Record);
    const std::int64_t id = store.openStream({.name = "later", .rateHz = 8000, .node = "rec"});
    store.appendSamples(id, 0, 0, std::vector<float>(800, 0.5f));
    CHECK_NOTHROW(store.commit());
}

TEST_CASE("a full disk stops recording saying so and what to do, without jargon", "[archive]") {
    if (!namespacesWork()) {
        WARN("skipped: unshare -rm does not work here");
        return;
    }
    TempFolder disk, work;
    const std::string archive = disk.file("full.sqlite");
    std::ofstream(work.file("full.isograph.json"))
        << R"({"format": "isochron-graph/1", "nodes": [)"
        << R"({"id": "gen", "type": "generators.signal_generator", "params": {"waveform": "noise", "rate": 48000, "duration": 10}},)"
        << R"({"id": "rec", "type": "io.archive_sink", "params": {"path": ")" << archive << R"(", "stream": "noise"}}],)"
        << R"("edges": [{"from": "gen.out", "to": "rec.in0"}]})";
    // 10 s of 48 kHz f32 noise is 1.9 MB; the disk holds 1 MiB.
    const CommandResult run = runProgram("unshare", "-rm sh -c 'mount -t tmpfs -o size=1m none " + disk.path.string() + " && " + ISOCHRON_RUN_BINARY +
                                                        " " + work.file("full.isograph.json") + "'");
    INFO(run.output);
    CHECK(run.status != 0);
    CHECK_THAT(run.output, Catch::Contains("node 'rec'") && Catch::Contains("the disk holding it is full") && Catch::Contains("recording stopped") &&
                               Catch::Contains("free space on that disk") && Catch::Contains("keep_gb"));
    CHECK_THAT(run.output, !Catch::Contains("(in process)"));
}
