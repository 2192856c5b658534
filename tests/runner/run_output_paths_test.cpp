// isochron-run's checks of the files sinks write, before the run and under --check: a named pipe as a
// sink's path, io.archive_sink on a path that can be no archive (a pipe, a device, a folder, a missing
// folder, another application's SQLite database: refused, the file left byte for byte as it was), and
// a file sink on one of the files SQLite keeps beside an archive the graph records or reads.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

namespace fs = std::filesystem;

using isochron::test::CommandResult;
using isochron::test::readText;
using isochron::test::runProgram;

namespace {

using isochron::test::TempFolder;

/// A graph file in `folder`: a 0.5 s sine into an io.archive_sink "rec" at `archivePath` (none when
/// empty) and an io.wav_file_sink "wav" at `wavPath` (none when empty).
std::string writeGraph(const TempFolder& folder, const std::string& archivePath, const std::string& wavPath) {
    const std::string path = folder.file("graph.isograph.json");
    std::ofstream graph(path);
    graph << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.5, "block": 400}})";
    if (!archivePath.empty()) graph << R"(, {"id": "rec", "type": "io.archive_sink", "params": {"path": ")" << archivePath << R"(", "stream": "s"}})";
    if (!wavPath.empty()) graph << R"(, {"id": "wav", "type": "io.wav_file_sink", "params": {"path": ")" << wavPath << R"("}})";
    graph << R"(], "edges": [)";
    if (!archivePath.empty()) graph << R"({"from": "gen.out", "to": "rec.in0"})" << (wavPath.empty() ? "" : ", ");
    if (!wavPath.empty()) graph << R"({"from": "gen.out", "to": "wav.in0"})";
    graph << "]}";
    return path;
}

CommandResult run(const std::string& arguments) { return runProgram("timeout 60 " ISOCHRON_RUN_BINARY, arguments); }

/// Runs `sql` on the SQLite database `path` (created if missing).
void execSql(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    const int result = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    sqlite3_close(db);
    REQUIRE(result == SQLITE_OK);
}

}  // namespace

TEST_CASE("--check refuses a named pipe as a file sink's path, as the run does", "[runner][faults]") {
    // --check said valid; only the run refused it.
    const TempFolder folder;
    const std::string fifo = folder.file("sink.fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const std::string graph = writeGraph(folder, "", fifo);
    for (const char* mode : {"--check", "--quiet"}) {
        INFO(mode);
        const CommandResult r = run(std::string(mode) + " " + graph);
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("node 'wav'") && Catch::Contains("parameter 'path': '" + fifo + "' is a named pipe (FIFO)"));
        CHECK(fs::is_fifo(fifo));
    }
}

TEST_CASE("io.archive_sink on a path that can be no archive is refused before the run and under --check, naming node and file",
          "[runner][faults][archive]") {
    // Each of these failed only in the run (exit 2, "... (in process)") while --check said valid, and
    // another application's database was adopted: archive tables added, user_version set to 3, exit 0.
    const TempFolder folder;
    const std::string foreign = folder.file("places.sqlite");
    execSql(foreign, "CREATE TABLE moz_places(url TEXT); INSERT INTO moz_places VALUES ('https://example.org');");
    const std::string foreignBytes = readText(foreign);
    REQUIRE_FALSE(foreignBytes.empty());
    const std::string fifo = folder.file("archive.fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const std::string folderPath = folder.path.string();
    const struct Case {
        std::string path, reason;
    } cases[] = {
        {foreign, "'" + foreign + "' is not a stream archive (a SQLite database holding table moz_places)"},
        {fifo, "'" + fifo + "' is a named pipe (FIFO), not an archive file"},
        {"/dev/null", "'/dev/null' is a device, not an archive file"},
        {folderPath, "'" + folderPath + "' is a folder, not an archive file"},
        {folder.file("no-such-folder/a.sqlite"), "the folder '" + folder.file("no-such-folder") + "' does not exist"},
        {"-", "an archive cannot be written to standard output ('-')"},  // it recorded into a file named '-'
    };
    for (const Case& c : cases) {
        const std::string graph = writeGraph(folder, c.path, "");
        for (const char* mode : {"--check", "--quiet"}) {
            INFO(c.path << " " << mode);
            const CommandResult r = run(std::string(mode) + " " + graph);
            CHECK(r.status == 1);
            CHECK_THAT(r.output, Catch::Contains("node 'rec'") && Catch::Contains(c.reason));
            CHECK_THAT(r.output, !Catch::Contains("in process"));
        }
    }
    CHECK(readText(foreign) == foreignBytes);  // byte for byte: not switched to WAL, no tables, no user_version
    CHECK_FALSE(fs::exists(foreign + "-wal"));
    CHECK(fs::is_fifo(fifo));
    CHECK(fs::is_character_file("/dev/null"));
    CHECK_FALSE(fs::exists(folder.file("no-such-folder")));
}

TEST_CASE("io.archive_sink makes a new archive of a missing file, a 0-byte file and an empty SQLite database", "[runner][archive]") {
    const TempFolder folder;
    const std::string empty = folder.file("empty.sqlite"), zero = folder.file("zero.sqlite");
    execSql(empty, "CREATE TABLE scratch(x); DROP TABLE scratch;");  // a database with no table left
    std::ofstream{zero};
    REQUIRE(fs::file_size(empty) > 0);
    for (const std::string& path : {folder.file("new.sqlite"), zero, empty}) {
        INFO(path);
        const std::string graph = writeGraph(folder, path, "");
        CHECK(run("--check " + graph).status == 0);
        const CommandResult r = run("--quiet " + graph);
        INFO(r.output);
        CHECK(r.status == 0);
        // The recording is there: 0.5 s at 8 kHz in stream "s".
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        sqlite3_stmt* query = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, "SELECT sum(length) FROM segments", -1, &query, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_step(query) == SQLITE_ROW);
        CHECK(sqlite3_column_int64(query, 0) == 4000);
        sqlite3_finalize(query);
        sqlite3_close(db);
    }
}

TEST_CASE("a file sink or --report on a file SQLite keeps beside an archive of the graph is refused before the run", "[runner][faults][archive]") {
    // A WAV sink on "<archive>-wal" beside io.archive_sink on the archive ran with exit 0, and the WAV
    // was gone after the run: SQLite removed its write-ahead log.
    const TempFolder folder;
    const std::string archive = folder.file("b.sqlite");
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
        const std::string beside = archive + suffix;
        const std::string graph = writeGraph(folder, archive, beside);
        for (const char* mode : {"--check", "--quiet"}) {
            INFO(suffix << " " << mode);
            const CommandResult r = run(std::string(mode) + " " + graph);
            CHECK(r.status == 1);
            CHECK_THAT(r.output, Catch::Contains("node 'wav' writes (parameter 'path') " + beside + " is the file '" + suffix +
                                                 "' SQLite keeps beside the archive node 'rec' writes (parameter 'path') " + archive));
            CHECK_FALSE(fs::exists(archive));
        }
    }
    const std::string graph = writeGraph(folder, archive, "");
    const CommandResult report = run("--quiet --report " + archive + "-wal " + graph);
    CHECK(report.status == 1);
    CHECK_THAT(report.output, Catch::Contains("--report " + archive + "-wal is the file '-wal' SQLite keeps beside the archive node 'rec'"));
    CHECK_FALSE(fs::exists(archive));
    // Beside another file of the folder, the same sink writes.
    CHECK(run("--quiet " + writeGraph(folder, archive, folder.file("b.wav"))).status == 0);
    CHECK(fs::exists(folder.file("b.wav")));
}

TEST_CASE("two io.archive_sink nodes recording one stream of one archive are refused before the run and under --check, naming both",
          "[runner][faults][archive]") {
    // --check said valid and the run stored every piece twice (two rows per start), and reads mixed them.
    // The stream defaults to the node id; the archive is one file by any name. Other streams may share it.
    const TempFolder folder;
    const std::string archive = folder.file("a.sqlite");
    const auto graphOf = [&](const std::string& secondPath, const std::string& firstStream, const std::string& secondStream) {
        const std::string path = folder.file("two.isograph.json");
        std::ofstream(path) << R"({"format": "isochron-graph/1", "nodes": [
          {"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1}},
          {"id": "one", "type": "io.archive_sink", "params": {"path": ")" << archive << R"(", "stream": ")" << firstStream << R"("}},
          {"id": "two", "type": "io.archive_sink", "params": {"path": ")" << secondPath << R"(", "stream": ")" << secondStream << R"("}}],
          "edges": [{"from": "gen.out", "to": "one.in0"}, {"from": "gen.out", "to": "two.in0"}]})";
        return path;
    };
    const struct Case {
        std::string secondPath, firstStream, secondStream, stream;
    } refused[] = {
        {archive, "tone", "tone", "tone"},
        {folder.file("./a.sqlite"), "tone", "tone", "tone"},
        {archive, "two", "", "two"},  // the second's stream is its node id
    };
    for (const Case& c : refused) {
        const std::string graph = graphOf(c.secondPath, c.firstStream, c.secondStream);
        for (const char* mode : {"--check", "--quiet"}) {
            INFO(c.secondPath << " " << c.firstStream << "/" << c.secondStream << " " << mode);
            const CommandResult r = run(std::string(mode) + " " + graph);
            CHECK(r.status == 1);
            CHECK_THAT(r.output, Catch::Contains("node 'one' and node 'two' both record the stream '" + c.stream + "' of the archive " + archive));
        }
    }
    CHECK_FALSE(fs::exists(archive));
    const CommandResult shared = run("--quiet " + graphOf(archive, "left", "right"));
    INFO(shared.output);
    CHECK(shared.status == 0);
}

namespace {

/// A graph file `name` in `folder` with these nodes and edges (JSON array texts).
std::string writeGraphOf(const TempFolder& folder, const std::string& name, const std::string& nodes, const std::string& edges) {
    const std::string path = folder.file(name);
    std::ofstream(path) << R"({"format": "isochron-graph/1", "nodes": )" << nodes << R"(, "edges": )" << edges << "}";
    return path;
}

}  // namespace

TEST_CASE("--check refuses io.archive_sink inputs the run would refuse: frames, two rates in one stream; no archive file is created",
          "[runner][faults][archive]") {
    // --check said valid for both. The frames were refused at the start, after the other sink had
    // created the archive (tables, no stream); the two rates failed in the run (exit 2) after storing
    // some of channel 0, naming neither the port nor a fix.
    const TempFolder folder;
    const std::string archive = folder.file("a.sqlite");
    const std::string generators = R"({"id": "g", "type": "generators.signal_generator", "params": {"duration": 0.5, "rate": 48000}},
                                      {"id": "g2", "type": "generators.signal_generator", "params": {"duration": 0.5, "rate": 16000}})";
    const std::string frames = writeGraphOf(folder, "frames.isograph.json",
                                            "[" + generators + R"(, {"id": "sp", "type": "spectral.spectrogram", "params": {"size": 1024, "hop": 512}},
                                              {"id": "rec", "type": "io.archive_sink", "params": {"path": ")" + archive + R"(", "stream": "spec"}},
                                              {"id": "rec2", "type": "io.archive_sink", "params": {"path": ")" + archive + R"(", "stream": "raw"}}])",
                                            R"([{"from": "g.out", "to": "sp.in"}, {"from": "sp.power", "to": "rec.in0"}, {"from": "g.out", "to": "rec2.in0"}])");
    const std::string mixed = writeGraphOf(folder, "mixed.isograph.json",
                                           "[" + generators + R"(, {"id": "rec", "type": "io.archive_sink", "params": {"path": ")" + archive +
                                               R"(", "stream": "mixed", "channels": 2}}])",
                                           R"([{"from": "g.out", "to": "rec.in0"}, {"from": "g2.out", "to": "rec.in1"}])");
    for (const char* mode : {"--check", "--quiet"}) {
        INFO(mode);
        const CommandResult refusedFrames = run(std::string(mode) + " " + frames);
        CHECK(refusedFrames.status == 1);
        CHECK_THAT(refusedFrames.output, Catch::Contains("node 'rec', port 'in0'") && Catch::Contains("input in0 carries frame<f32>") &&
                                             Catch::Contains("record the signal it is computed from"));
        const CommandResult refusedRates = run(std::string(mode) + " " + mixed);
        CHECK(refusedRates.status == 1);
        CHECK_THAT(refusedRates.output, Catch::Contains("node 'rec', port 'in1'") &&
                                            Catch::Contains("input in1 carries 16000 Hz (from node 'g2'), input in0 48000 Hz (from node 'g')") &&
                                            Catch::Contains("resample.to_rate") && Catch::Contains("its own io.archive_sink"));
        CHECK_FALSE(fs::exists(archive));
    }
    // One rate on both inputs is recorded.
    const std::string same = writeGraphOf(folder, "same.isograph.json",
                                          R"([{"id": "g", "type": "generators.signal_generator", "params": {"duration": 0.5, "rate": 16000}},
                                              {"id": "g2", "type": "generators.signal_generator", "params": {"duration": 0.5, "rate": 16000}},
                                              {"id": "rec", "type": "io.archive_sink", "params": {"path": ")" + archive + R"(", "stream": "same", "channels": 2}}])",
                                          R"([{"from": "g.out", "to": "rec.in0"}, {"from": "g2.out", "to": "rec.in1"}])");
    CHECK(run("--check " + same).status == 0);
    CHECK(run("--quiet " + same).status == 0);
    CHECK(fs::exists(archive));
}

TEST_CASE("io.archive_sink fed two rates it could not know before the run names both inputs and the fix", "[runner][faults][archive]") {
    // A filter between source and sink hides the rate from validation: the run refuses at the second
    // rate's first item (as before), now naming the inputs and saying what to do.
    const TempFolder folder;
    const std::string archive = folder.file("a.sqlite");
    const std::string graph = writeGraphOf(folder, "hidden.isograph.json",
                                           R"([{"id": "g", "type": "generators.signal_generator", "params": {"duration": 0.5, "rate": 48000}},
                                               {"id": "g2", "type": "generators.signal_generator", "params": {"duration": 0.5, "rate": 16000}},
                                               {"id": "dc", "type": "filters.dc_blocker"},
                                               {"id": "rec", "type": "io.archive_sink", "params": {"path": ")" + archive + R"(", "stream": "mixed", "channels": 2}}])",
                                           R"([{"from": "g.out", "to": "rec.in0"}, {"from": "g2.out", "to": "dc.in"}, {"from": "dc.out", "to": "rec.in1"}])");
    CHECK(run("--check " + graph).status == 0);
    const CommandResult r = run("--quiet " + graph);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("node 'rec'") && Catch::Contains("input in0 brought 48000") && Catch::Contains("then input in1 16000") &&
                             Catch::Contains("Resample in1 to 48000 Hz first (resample.to_rate)"));
}

namespace {

/// A graph file in `folder`: a 0.1 s sine into a sink of `sinkType` writing `path`.
std::string writeSinkGraph(const TempFolder& folder, const std::string& sinkType, const std::string& path) {
    const std::string graph = folder.file("sink.isograph.json");
    const std::string input = sinkType == "io.jsonl_event_sink" ? "out.in" : "out.in0";
    const std::string source = sinkType == "io.jsonl_event_sink" || sinkType == "io.csv_sink"
                                   ? R"({"id": "gen", "type": "workload.tuple_source", "params": {"count": 10, "pace": 0}})"
                                   : R"({"id": "gen", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0.1}})";
    const std::string from = sinkType == "io.jsonl_event_sink" || sinkType == "io.csv_sink" ? "gen.out0" : "gen.out";
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [)" << source << R"(,
      {"id": "out", "type": ")" << sinkType << R"(", "params": {"path": ")" << path << R"("}}],
      "edges": [{"from": ")" << from << R"(", "to": ")" << input << R"("}]})";
    return graph;
}

/// The command prefix that runs a program as an unprivileged user: root writes through any file
/// permission, so the checks of write protection are seen only by another user.
std::string asUnprivilegedUser() { return geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""; }

}  // namespace

TEST_CASE("--check refuses what the run refuses: a sink's empty path, a write-protected file, a folder closed to this user",
          "[runner][faults]") {
    // --check said valid for each; the run then refused (or, for the write-protected file, replaced it).
    const TempFolder folder;
    fs::permissions(folder.path, fs::perms::all);  // the unprivileged user creates files here
    for (const char* sink : {"io.wav_file_sink", "io.csv_sink", "io.jsonl_event_sink", "io.archive_sink"}) {
        INFO(sink << ", empty path");
        const CommandResult r = run("--check " + writeSinkGraph(folder, sink, ""));
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Catch::Contains("node 'out', parameter 'path': no file given"));
    }
    // A checkout in a folder closed to other users (mktemp -d makes one) keeps its programs from nobody.
    if (runProgram(asUnprivilegedUser() + ISOCHRON_RUN_BINARY, "--help").status != 0) {
        WARN("skipped: user nobody cannot run " ISOCHRON_RUN_BINARY " (the checkout's folder is closed to other users)");
        return;
    }
    const std::string protectedFile = folder.file("protected.wav");
    std::ofstream(protectedFile) << "p3";
    fs::permissions(protectedFile, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const std::string closed = folder.file("closed");
    fs::create_directory(closed);
    fs::permissions(closed, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    const struct Case {
        std::string sink, path, reason;
    } cases[] = {
        {"io.wav_file_sink", protectedFile, "cannot write '" + protectedFile + "': Permission denied"},
        {"io.csv_sink", protectedFile, "cannot write '" + protectedFile + "': Permission denied"},
        {"io.wav_file_sink", closed + "/new.wav", "the folder '" + closed + "' does not let this user create files in it"},
        {"io.jsonl_event_sink", closed + "/new.jsonl", "the folder '" + closed + "' does not let this user create files in it"},
        {"io.archive_sink", closed + "/new.sqlite", "may not create files in its folder '" + closed + "'"},
    };
    for (const Case& c : cases) {
        const std::string graph = writeSinkGraph(folder, c.sink, c.path);
        for (const char* mode : {"--check", "--quiet"}) {
            INFO(c.sink << " " << c.path << " " << mode);
            const CommandResult r = runProgram(asUnprivilegedUser() + "timeout 60 " ISOCHRON_RUN_BINARY, std::string(mode) + " " + graph);
            CHECK(r.status == 1);
            CHECK_THAT(r.output, Catch::Contains("node 'out'") && Catch::Contains(c.reason));
            CHECK_THAT(r.output, !Catch::Contains(".partial"));
        }
    }
    CHECK(readText(protectedFile) == "p3");
    CHECK(fs::is_empty(closed));
}

TEST_CASE("a file sink replacing a file gives the new file the old one's permissions", "[runner][faults]") {
    // The replacement grew under a partial name and was renamed over the file: a private (600)
    // recording re-recorded became 644, readable by every user.
    const TempFolder folder;
    for (const char* sink : {"io.wav_file_sink", "io.csv_sink"}) {
        INFO(sink);
        const std::string privateFile = folder.file(std::string("private-") + sink);
        std::ofstream(privateFile) << "p3";
        fs::permissions(privateFile, fs::perms::owner_read | fs::perms::owner_write);
        const CommandResult r = run("--quiet " + writeSinkGraph(folder, sink, privateFile));
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(readText(privateFile) != "p3");
        CHECK((fs::status(privateFile).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
    }
}

TEST_CASE("a sound file sink given /dev/stdout into a pipe refuses it as it refuses '-', saying what to do", "[runner][faults]") {
    // It started, then failed with libsndfile's text about the pipe (and, before, a partial file named after "pipe:[N]").
    const TempFolder folder;
    const std::string graph = writeSinkGraph(folder, "io.wav_file_sink", "/dev/stdout");
    const CommandResult r = runProgram("bash -c 'set -o pipefail; timeout 60 " ISOCHRON_RUN_BINARY " --quiet " + graph + " | cat > /dev/null'", "");
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("node 'out'") && Catch::Contains("'/dev/stdout' is a pipe or terminal here: a sound file's header is "
                                                                          "completed by seeking back, so redirect standard output to a file"));
}
