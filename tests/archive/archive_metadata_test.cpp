// What a recorded stream says about where it came from (issue 13: "each stream keeps its metadata:
// sample rate, channel count and geometry, sample type, units, the graph and operator that produced
// it"), end to end through isochron-run and isochron-archive, and the upgrade of a version-4 file.
// Before, a source given a geometry recorded none, `graph` was empty when isochron-run recorded, and
// only the recording node was stored; replayed events came back with their attributes in
// alphabetical order instead of the producer's.
#include <catch2/catch.hpp>

#include <sndfile.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "nodes/spatial/array_geometry.h"
#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Writes a 4-channel 8 kHz float WAV of 0.5 s to `path`.
void writeFourChannels(const std::string& path) {
    SF_INFO format{};
    format.samplerate = 8000;
    format.channels = 4;
    format.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &format);
    REQUIRE(file != nullptr);
    std::vector<float> frames(4000 * 4);
    for (std::size_t i = 0; i < frames.size(); ++i) frames[i] = static_cast<float>(i % 97) / 128.0f;
    sf_writef_float(file, frames.data(), 4000);
    sf_close(file);
}

/// Runs `sql` on the SQLite file `path`.
void runSql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    const int result = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    INFO((error ? error : ""));
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE(result == SQLITE_OK);
}

}  // namespace

TEST_CASE("a recording keeps the graph, the producing node and operator, and the geometry its source was given", "[archive]") {
    TempFolder folder;
    writeFourChannels(folder.file("in.wav"));
    std::ofstream(folder.file("meta.isograph.json"))
        << R"({"format": "isochron-graph/1", "nodes": [)"
        << R"({"id": "array", "type": "io.audio_file_source", "params": {"path": "in.wav", "channels": 4, "geometry": "square4:0.2"}},)"
        << R"({"id": "rec", "type": "io.archive_sink", "params": {"path": "meta.sqlite", "stream": "mics", "channels": 4}}],)"
        << R"("edges": [{"from": "array.out*", "to": "rec.in*"}]})";
    const CommandResult run = runProgram(ISOCHRON_RUN_BINARY, folder.file("meta.isograph.json") + " --quiet");
    INFO(run.output);
    REQUIRE(run.status == 0);
    ArchiveStore store(folder.file("meta.sqlite"), ArchiveAccess::Read);
    const std::optional<ArchivedStreamInfo> info = store.stream("mics");
    REQUIRE(info);
    CHECK(info->graph == "meta.isograph.json");
    CHECK(info->producer == "array (io.audio_file_source)");
    CHECK(info->node == "rec");
    const ArrayGeometry expected = loadGeometry("square4:0.2");
    const ArrayGeometry stored = loadGeometry(info->geometry);
    REQUIRE(stored.micCount() == 4);
    for (int mic = 0; mic < 4; ++mic) CHECK((stored.mics[static_cast<std::size_t>(mic)] - expected.mics[static_cast<std::size_t>(mic)]).norm() < 1e-12);
    const CommandResult described = runProgram(ISOCHRON_ARCHIVE_BINARY, "info " + folder.file("meta.sqlite") + " mics");
    CHECK(described.status == 0);
    CHECK_THAT(described.output, Catch::Contains("graph        meta.isograph.json") && Catch::Contains("producer     array (io.audio_file_source)") &&
                                     Catch::Contains("geometry     {\"mics\":[[") && Catch::Contains("recorder     rec"));
}

TEST_CASE("a geometry given to io.archive_sink is stored as positions, and one of the wrong size is refused naming it", "[archive]") {
    TempFolder folder;
    writeFourChannels(folder.file("in.wav"));
    const auto graph = [&](const std::string& geometry) {
        std::ofstream(folder.file("given.isograph.json"))
            << R"({"format": "isochron-graph/1", "name": "given", "nodes": [)"
            << R"({"id": "array", "type": "io.audio_file_source", "params": {"path": "in.wav", "channels": 4}},)"
            << R"({"id": "rec", "type": "io.archive_sink", "params": {"path": "given.sqlite", "stream": "mics", "channels": 4, "geometry": ")" << geometry
            << R"("}}], "edges": [{"from": "array.out*", "to": "rec.in*"}]})";
        return folder.file("given.isograph.json");
    };
    const CommandResult wrong = runProgram(ISOCHRON_RUN_BINARY, graph("circular3:0.1") + " --check");
    CHECK(wrong.status == 1);
    CHECK_THAT(wrong.output, Catch::Contains("rec") && Catch::Contains("geometry") && Catch::Contains("3 mics") && Catch::Contains("4 channels"));
    const CommandResult run = runProgram(ISOCHRON_RUN_BINARY, graph("square4:0.2") + " --quiet");
    INFO(run.output);
    REQUIRE(run.status == 0);
    ArchiveStore store(folder.file("given.sqlite"), ArchiveAccess::Read);
    CHECK(loadGeometry(store.stream("mics")->geometry).micCount() == 4);
    CHECK(store.stream("mics")->graph == "given.isograph.json");
}

TEST_CASE("recorded events replay with their attributes in the producer's order, and isochron-archive prints them so", "[archive]") {
    TempFolder folder;
    std::ofstream(folder.file("events.jsonl")) << R"({"t_start": 0.1, "t_end": 0.11, "label": "e", "score": 1, "zeta": 1, "alpha": 2, "mid": 3})" << "\n";
    std::ofstream(folder.file("rec.isograph.json"))
        << R"({"format": "isochron-graph/1", "nodes": [)"
        << R"({"id": "src", "type": "io.jsonl_event_source", "params": {"path": "events.jsonl", "rate": 1000}},)"
        << R"({"id": "rec", "type": "io.archive_sink", "params": {"path": "ev.sqlite", "stream": "events"}}],)"
        << R"("edges": [{"from": "src.out", "to": "rec.in0"}]})";
    std::ofstream(folder.file("replay.isograph.json"))
        << R"({"format": "isochron-graph/1", "nodes": [)"
        << R"({"id": "replay", "type": "io.archive_source", "params": {"path": "ev.sqlite", "stream": "events"}},)"
        << R"({"id": "out", "type": "io.jsonl_event_sink", "params": {"path": "out.jsonl"}}],)"
        << R"("edges": [{"from": "replay.out0", "to": "out.in"}]})";
    const CommandResult recorded = runProgram(ISOCHRON_RUN_BINARY, folder.file("rec.isograph.json") + " --quiet");
    INFO(recorded.output);
    REQUIRE(recorded.status == 0);
    const CommandResult listed = runProgram(ISOCHRON_ARCHIVE_BINARY, "get " + folder.file("ev.sqlite") + " events");
    CHECK_THAT(listed.output, Catch::Contains(R"("attributes":{"zeta":1.0,"alpha":2.0,"mid":3.0})"));
    const CommandResult replayed = runProgram(ISOCHRON_RUN_BINARY, folder.file("replay.isograph.json") + " --quiet");
    INFO(replayed.output);
    REQUIRE(replayed.status == 0);
    const std::string line = readText(folder.file("out.jsonl"));
    INFO(line);
    const auto zeta = line.find("\"zeta\""), alpha = line.find("\"alpha\""), mid = line.find("\"mid\"");
    REQUIRE(zeta != std::string::npos);
    REQUIRE(alpha != std::string::npos);
    REQUIRE(mid != std::string::npos);
    CHECK(zeta < alpha);
    CHECK(alpha < mid);
    ArchiveStore store(folder.file("ev.sqlite"), ArchiveAccess::Read);
    CHECK(store.stream("events")->producer == "src (io.jsonl_event_source)");
}

TEST_CASE("a version-4 archive reads as it is (no geometry, no producer), and a recorder upgrades it to version 5", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("v4.sqlite");
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        const std::int64_t id = store.openStream({.name = "old", .rateHz = 8000, .node = "rec"});
        store.appendSamples(id, 0, 0, std::vector<float>(800, 0.5f));
        store.commit();
    }
    runSql(path, "ALTER TABLE streams DROP COLUMN geometry; ALTER TABLE streams DROP COLUMN producer; PRAGMA user_version=4;");
    const auto version = [&] {
        sqlite3* db = nullptr;
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* query = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &query, nullptr);
        sqlite3_step(query);
        const int found = sqlite3_column_int(query, 0);
        sqlite3_finalize(query);
        sqlite3_close(db);
        return found;
    };
    {
        ArchiveStore store(path, ArchiveAccess::Read);
        const std::optional<ArchivedStreamInfo> info = store.stream("old");
        REQUIRE(info);
        CHECK(info->geometry.empty());
        CHECK(info->producer.empty());
        CHECK(store.extent("old")->samples == 800);
    }
    CHECK(version() == 4);
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        store.openStream({.name = "new", .rateHz = 8000, .node = "rec", .producer = "gen (generators.signal_generator)", .geometry = R"({"mics":[[0,0,0]]})"});
        CHECK(store.stream("old")->producer.empty());
    }
    CHECK(version() == 5);
    ArchiveStore store(path, ArchiveAccess::Read);
    CHECK(store.stream("new")->producer == "gen (generators.signal_generator)");
    CHECK(store.stream("new")->geometry == R"({"mics":[[0,0,0]]})");
}
