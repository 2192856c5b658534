// isochron-archive end to end: the real binary on a real SQLite archive written with ArchiveStore
// (a 2-channel signal with a gap, a 1-channel stream on the wall clock, an event stream). Exports
// read back with libsndfile and nlohmann::json must equal the samples and items written.
#include <catch2/catch.hpp>

#include <sndfile.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <iterator>
#include <map>
#include <sstream>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_time.h"
#include "tests/support/run_command.h"
#include "tests/support/test_files.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr double kRate = 8000;
constexpr std::int64_t kPiece = 800;
constexpr std::int64_t kLength = 16000;  // 2 s
constexpr std::int64_t kGapStart = 8000;  // [1 s, 1.2 s) not recorded
constexpr std::int64_t kGapEnd = 9600;
/// Zero time of the wall-clock stream: 2026-11-28T03:00:00Z.
constexpr TimeNs kWallZero = 1'795'834'800'000'000'000;

std::string archiveBinary() { return ISOCHRON_ARCHIVE_BINARY; }

/// Samples of channel `channel`: multiples of 2^-23 in [-1, 1), so 24-bit FLAC holds them exactly.
std::vector<std::vector<float>> knownChannels() {
    std::mt19937 random(2026);
    std::uniform_int_distribution<std::int32_t> code(-(1 << 23), (1 << 23) - 1);
    std::vector<std::vector<float>> channels(2, std::vector<float>(kLength));
    for (auto& channel : channels) {
        for (float& sample : channel) sample = static_cast<float>(code(random)) / static_cast<float>(1 << 23);
    }
    return channels;
}

/// The archive the tests read: "array" (2 ch, media clock, gap), "mic" (1 ch, wall clock), "events".
void writeArchive(const std::string& path, const std::vector<std::vector<float>>& channels) {
    ArchiveStore store(path, ArchiveAccess::Record);
    const std::int64_t array = store.openStream({.name = "array", .rateHz = kRate, .channels = 2, .units = "Pa", .node = "rec"});
    for (int c = 0; c < 2; ++c) {
        for (std::int64_t start = 0; start < kLength; start += kPiece) {
            if (start >= kGapStart && start < kGapEnd) continue;
            store.appendSamples(array, c, start, std::span(channels[c]).subspan(static_cast<std::size_t>(start), kPiece));
        }
    }
    const std::int64_t mic = store.openStream({.name = "mic", .rateHz = kRate, .zeroTimeNs = kWallZero, .clock = "wall", .node = "rec2"});
    // Pieces of 0.5 s, each one stored piece (shorter than pieceSamples()): `get` prints a line per piece.
    constexpr std::int64_t kHalfSecond = static_cast<std::int64_t>(kRate) / 2;
    for (std::int64_t start = 0; start < kLength; start += kHalfSecond) {
        store.appendSamples(mic, 0, start, std::span(channels[0]).subspan(static_cast<std::size_t>(start), kHalfSecond));
    }
    const std::int64_t events = store.openStream({.name = "events", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = kRate, .sampleType = "json", .node = "det"});
    for (int i = 0; i < 10; ++i) store.appendItem(events, 1000 * i, 10, json{{"kind", "event"}, {"label", "clap"}, {"score", i}}.dump());
    store.commit();
}

/// Interleaved frames of a sound file, read by libsndfile.
std::vector<float> readSound(const std::string& path, SF_INFO& info) {
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    REQUIRE(file != nullptr);
    std::vector<float> frames(static_cast<std::size_t>(info.frames * info.channels));
    CHECK(sf_readf_float(file, frames.data(), info.frames) == info.frames);
    sf_close(file);
    return frames;
}

struct Archive {
    TempFolder folder;
    std::string path = folder.file("session.sqlite");
    std::vector<std::vector<float>> channels = knownChannels();
    Archive() { writeArchive(path, channels); }
    CommandResult run(const std::string& arguments) const { return runProgram(archiveBinary(), arguments); }
};

}  // namespace

TEST_CASE("isochron-archive ls and info describe every stream and its gaps", "[archive][cli]") {
    const Archive archive;
    const CommandResult listed = archive.run("ls " + archive.path);
    REQUIRE(listed.status == 0);
    CHECK_THAT(listed.output, Catch::Contains("array") && Catch::Contains("mic") && Catch::Contains("events") && Catch::Contains("wall"));
    const CommandResult info = archive.run("info " + archive.path + " array");
    REQUIRE(info.status == 0);
    CHECK_THAT(info.output, Catch::Contains("Pa") && Catch::Contains("channel 1    2 stretch(es): [0.000000 s, 1.000000 s), [1.200000 s, 2.000000 s)"));
}

TEST_CASE("isochron-archive refuses unknown archives and streams, empty intervals and intervals holding nothing", "[archive][cli]") {
    const Archive archive;
    const CommandResult noFile = archive.run("ls " + archive.folder.file("missing.sqlite"));
    CHECK(noFile.status == 1);
    CHECK_THAT(noFile.output, Catch::Contains("missing.sqlite"));
    const CommandResult noStream = archive.run("get " + archive.path + " arry");
    CHECK(noStream.status == 1);
    CHECK_THAT(noStream.output, Catch::Contains("no stream 'arry'") && Catch::Contains("it holds: array, events, mic"));
    const CommandResult empty = archive.run("get " + archive.path + " array --from 1.5 --to 1.5");
    CHECK(empty.status == 1);
    CHECK_THAT(empty.output, Catch::Contains("empty interval"));
    const CommandResult nothing = archive.run("get " + archive.path + " array --from 5 --to 6");
    CHECK(nothing.status == 1);
    CHECK_THAT(nothing.output, Catch::Contains("nothing of stream 'array' is stored") && Catch::Contains("it holds 0.000000 s to 2.000000 s"));
    const CommandResult badTime = archive.run("get " + archive.path + " array --from 12:30");
    CHECK(badTime.status == 1);
    CHECK_THAT(badTime.output, Catch::Contains("time '12:30'"));
    const CommandResult date = archive.run("get " + archive.path + " array --from 2026-11-28T03:00Z");
    CHECK(date.status == 1);
    CHECK_THAT(date.output, Catch::Contains("not the wall clock"));
    const CommandResult badCommand = archive.run("cat " + archive.path);
    CHECK(badCommand.status == 1);
    CHECK_THAT(badCommand.output, Catch::Contains("unknown command 'cat'"));
}

TEST_CASE("isochron-archive refuses an interval inside an item stream holding no item, as a signal interval holding nothing", "[archive][cli]") {
    // Items at 0, 0.125, 0.25, ... s (10 samples each): none starts in [0.13 s, 0.2 s). Before, get
    // printed nothing and export wrote an empty file, both with exit status 0.
    const Archive archive;
    const CommandResult none = archive.run("get " + archive.path + " events --from 0.13 --to 0.2");
    CHECK(none.status == 1);
    CHECK_THAT(none.output, Catch::Contains("no items of stream 'events' in [0.130000 s, 0.200000 s)"));
    const std::string output = archive.folder.file("none.jsonl");
    const CommandResult exported = archive.run("export " + archive.path + " events --from 0.13 --to 0.2 --format jsonl --output " + output);
    CHECK(exported.status == 1);
    CHECK_THAT(exported.output, Catch::Contains("no items of stream 'events'"));
    CHECK_FALSE(std::filesystem::exists(output));
    CHECK(archive.run("get " + archive.path + " events --from 0.1 --to 0.2").status == 0);
}

TEST_CASE("isochron-archive get refuses --channel on an item stream instead of ignoring it", "[archive][cli]") {
    // Before, every item was printed with exit status 0, as if they were channel 1's.
    const Archive archive;
    const CommandResult got = archive.run("get " + archive.path + " events --channel 1");
    CHECK(got.status == 1);
    CHECK_THAT(got.output, Catch::Contains("stream 'events' holds items") && Catch::Contains("--channel applies to signal streams only"));
    CHECK_THAT(got.output, !Catch::Contains("\"start\""));
}

TEST_CASE("isochron-archive leaves a file that is no archive as it was: not switched to WAL, no tables added", "[archive][cli]") {
    const TempFolder folder;
    // Another program's SQLite database (rollback journal), and an empty file.
    const std::string other = folder.file("other.sqlite"), empty = folder.file("empty.sqlite");
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(other.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES ('keep me');", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    std::ofstream{empty};
    const auto otherSize = std::filesystem::file_size(other);
    for (const std::string& path : {other, empty}) {
        INFO(path);
        const CommandResult listed = runProgram(archiveBinary(), "ls " + path);
        CHECK(listed.status == 1);
        CHECK_THAT(listed.output, Catch::Contains("is not a stream archive"));
    }
    CHECK(std::filesystem::file_size(empty) == 0);
    CHECK(std::filesystem::file_size(other) == otherSize);
    CHECK_FALSE(std::filesystem::exists(other + "-wal"));
    REQUIRE(sqlite3_open(other.c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* mode = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &mode, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(mode) == SQLITE_ROW);
    CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(mode, 0))) == "delete");
    sqlite3_finalize(mode);
    sqlite3_close(db);
}

TEST_CASE("isochron-archive get lists stored pieces and the gap, clipped to the interval", "[archive][cli]") {
    const Archive archive;
    const CommandResult got = archive.run("get " + archive.path + " array --from 0.95 --to 1.25 --channel 1");
    REQUIRE(got.status == 0);
    CHECK_THAT(got.output, Catch::Contains("channel 1  [0.950000 s, 1.000000 s)  stored  400 samples") &&
                               Catch::Contains("channel 1  [1.000000 s, 1.200000 s)  gap     1600 samples") &&
                               Catch::Contains("channel 1  [1.200000 s, 1.250000 s)  stored  400 samples"));
    CHECK_THAT(got.output, !Catch::Contains("channel 0"));
    // Each stored piece's RMS, against one summed here plainly: five pieces, four of them taken side
    // by side by the CLI, the fifth alone.
    const CommandResult rmsLines = archive.run("get " + archive.path + " array --from 0 --to 0.5 --channel 0");
    REQUIRE(rmsLines.status == 0);
    for (std::int64_t start = 0; start < 5 * kPiece; start += kPiece) {
        double squares = 0;
        for (std::int64_t i = start; i < start + kPiece; ++i) squares += static_cast<double>(archive.channels[0][static_cast<std::size_t>(i)]) * archive.channels[0][static_cast<std::size_t>(i)];
        char expected[128];
        std::snprintf(expected, sizeof expected, "channel 0  [%.6f s, %.6f s)  stored  %lld samples, rms %.6g\n", static_cast<double>(start) / kRate,
                      static_cast<double>(start + kPiece) / kRate, static_cast<long long>(kPiece), std::sqrt(squares / static_cast<double>(kPiece)));
        CHECK_THAT(rmsLines.output, Catch::Contains(expected));
    }
    // Inside the gap: nothing stored in [from, to) on any channel, but the stream holds data on both
    // sides, so the interval is listed as a gap, not refused.
    const CommandResult inGap = archive.run("get " + archive.path + " array --from 1.05 --to 1.15");
    REQUIRE(inGap.status == 0);
    CHECK(inGap.output == "channel 0  [1.050000 s, 1.150000 s)  gap     800 samples\nchannel 1  [1.050000 s, 1.150000 s)  gap     800 samples\n");
    const CommandResult events = archive.run("get " + archive.path + " events --from 0.2 --to 0.5");
    REQUIRE(events.status == 0);
    std::istringstream lines(events.output);
    std::vector<std::int64_t> starts;
    for (std::string line; std::getline(lines, line);) starts.push_back(json::parse(line)["start"].get<std::int64_t>());
    CHECK(starts == std::vector<std::int64_t>{2000, 3000});  // starts in [1600, 4000)
}

TEST_CASE("isochron-archive exports WAV and FLAC sample-exact, and refuses a gap", "[archive][cli]") {
    const Archive archive;
    for (const std::string format : {"wav", "flac"}) {
        INFO(format);
        const std::string output = archive.folder.file("out." + format);
        const CommandResult exported = archive.run("export " + archive.path + " array --from 0.25 --to 1 --format " + format + " --output " + output);
        REQUIRE(exported.status == 0);
        SF_INFO info{};
        const std::vector<float> frames = readSound(output, info);
        CHECK(info.samplerate == 8000);
        REQUIRE(info.channels == 2);
        REQUIRE(info.frames == 6000);
        for (std::int64_t frame = 0; frame < info.frames; ++frame) {
            for (int c = 0; c < 2; ++c) REQUIRE(frames[static_cast<std::size_t>(frame * 2 + c)] == archive.channels[c][static_cast<std::size_t>(2000 + frame)]);
        }
    }
    const CommandResult gap = archive.run("export " + archive.path + " array --format wav --output " + archive.folder.file("gap.wav"));
    CHECK(gap.status == 1);
    CHECK_THAT(gap.output, Catch::Contains("channel 0 of stream 'array' has a gap at 1.000000 s to 1.200000 s"));
    CHECK_FALSE(std::filesystem::exists(archive.folder.file("gap.wav.partial")));
    CHECK_FALSE(std::filesystem::exists(archive.folder.file("gap.wav")));
    // An interval starting inside the gap: refused from its start.
    const CommandResult fromGap = archive.run("export " + archive.path + " array --from 1.1 --to 1.5 --format flac --output " + archive.folder.file("gap.flac"));
    CHECK_THAT(fromGap.output, Catch::Contains("channel 0 of stream 'array' has a gap at 1.100000 s to 1.200000 s"));
}

TEST_CASE("isochron-archive export to standard output: flac streams into a pipe, wav into a file, and wav into a pipe is refused saying why",
          "[archive][cli]") {
    const Archive archive;
    const std::string piped = archive.folder.file("piped.flac"), redirected = archive.folder.file("redirected.wav");
    REQUIRE(runProgram(archiveBinary(), "export " + archive.path + " array --from 0 --to 1 --format flac --output - | cat > " + piped).status == 0);
    REQUIRE(runProgram(archiveBinary(), "export " + archive.path + " array --from 0 --to 1 --format wav --output - > " + redirected).status == 0);
    for (const std::string& path : {piped, redirected}) {
        INFO(path);
        // Read to the end: FLAC written into a pipe cannot state its length (STREAMINFO's total is 0, "unknown").
        SF_INFO info{};
        SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
        REQUIRE(file != nullptr);
        REQUIRE(info.channels == 2);
        std::vector<float> frames, block(2 * 1024);
        while (const sf_count_t read = sf_readf_float(file, block.data(), 1024)) frames.insert(frames.end(), block.begin(), block.begin() + read * 2);
        sf_close(file);
        REQUIRE(frames.size() == 2 * 8000);
        for (std::size_t frame = 0; frame < 8000; ++frame) {
            for (std::size_t c = 0; c < 2; ++c) REQUIRE(frames[frame * 2 + c] == archive.channels[c][frame]);
        }
    }
    const CommandResult wavPipe = runProgram("bash -c '" + archiveBinary() + " export " + archive.path + " array --from 0 --to 1 --format wav --output - | cat >/dev/null; exit ${PIPESTATUS[0]}'", "");
    CHECK(wavPipe.status == 1);
    CHECK_THAT(wavPipe.output, Catch::Contains("wav cannot go to standard output here (a pipe or a terminal)") && Catch::Contains("--format flac"));
}

TEST_CASE("isochron-archive exports JSON lines with pieces, the gap and items", "[archive][cli]") {
    const Archive archive;
    const std::string output = archive.folder.file("array.jsonl");
    REQUIRE(archive.run("export " + archive.path + " array --from 0.9 --to 1.3 --format jsonl --output " + output).status == 0);
    std::ifstream file(output);
    std::vector<float> channel0;
    int gaps = 0;
    for (std::string line; std::getline(file, line);) {
        const json piece = json::parse(line);
        if (piece["channel"] != 0) continue;
        if (piece["gap"].get<bool>()) {
            ++gaps;
            CHECK(piece["start"] == kGapStart);
            CHECK(piece["length"] == kGapEnd - kGapStart);
            channel0.resize(channel0.size() + static_cast<std::size_t>(kGapEnd - kGapStart), 0.0f);
            continue;
        }
        for (const json& sample : piece["samples"]) channel0.push_back(sample.get<float>());
    }
    CHECK(gaps == 1);
    REQUIRE(channel0.size() == 3200);
    for (std::size_t i = 0; i < channel0.size(); ++i) {
        const std::int64_t index = 7200 + static_cast<std::int64_t>(i);
        if (index < kGapStart || index >= kGapEnd) REQUIRE(channel0[i] == archive.channels[0][static_cast<std::size_t>(index)]);
    }
}

TEST_CASE("isochron-archive export to standard output whose reader leaves ends with 141, as --help says", "[archive][cli]") {
    // --help listed 0 and 1 only.
    const Archive archive;
    const CommandResult cut = runProgram("bash -c '" + archiveBinary() + " export " + archive.path +
                                             " array --format jsonl --output - | head -c 100 >/dev/null; exit ${PIPESTATUS[0]}'",
                                         "");
    CHECK(cut.status == 141);
    const CommandResult help = archive.run("--help");
    CHECK_THAT(help.output, Catch::Contains("141 standard output closed by its reader"));
}

TEST_CASE("isochron-archive calls a file that is no SQLite database, or a damaged archive, that, and says what to do", "[archive][cli]") {
    // SQLite's words alone reached the user: "a query failed: file is not a database", "database disk image is malformed".
    const Archive archive;
    const std::string notes = archive.folder.file("notes.sqlite"), damaged = archive.folder.file("damaged.sqlite");
    std::ofstream(notes) << "a text file, not an archive\n";
    const std::string whole = readText(archive.path);
    std::ofstream(damaged, std::ios::binary) << whole.substr(0, whole.size() / 3);
    const CommandResult text = archive.run("ls " + notes);
    CHECK(text.status == 1);
    CHECK_THAT(text.output, Catch::Contains("'" + notes + "' is not a stream archive: it is not an SQLite database at all (SQLite: file is not a database)") &&
                                Catch::Contains("give an archive io.archive_sink recorded"));
    for (const std::string command : {"ls ", "info ", "get "}) {
        INFO(command);
        const CommandResult cut = archive.run(command + damaged + (command == "ls " ? "" : " array"));
        CHECK(cut.status == 1);
        CHECK_THAT(cut.output, Catch::Contains("archive '" + damaged + "' is damaged (SQLite: database disk image is malformed)") &&
                                   Catch::Contains("use a complete copy of it"));
    }
}

TEST_CASE("isochron-archive takes ISO 8601 times on a wall-clock stream, the same as seconds", "[archive][cli]") {
    const Archive archive;
    const CommandResult byDate = archive.run("get " + archive.path + " mic --from 2026-11-28T03:00:00.5Z --to 2026-11-28T04:00:00.75+01:00");
    const CommandResult bySeconds = archive.run("get " + archive.path + " mic --from 0.5 --to 0.75");
    REQUIRE(byDate.status == 0);
    CHECK(byDate.output == bySeconds.output);
    CHECK_THAT(byDate.output, Catch::StartsWith("channel 0  [0.500000 s, 0.750000 s) = [2026-11-28T03:00:00.500000000Z, 2026-11-28T03:00:00.750000000Z)"
                                                "  stored  2000 samples"));
    const CommandResult info = archive.run("info " + archive.path + " mic");
    CHECK_THAT(info.output, Catch::Contains("2026-11-28T03:00:00.000000000Z"));
}

TEST_CASE("isochron-archive ls, info and get show a wall-clock stream's times in UTC beside the seconds; a media-clock stream's in seconds only",
          "[archive][cli]") {
    // They printed seconds only: a user looking for "03:12 last night" had to convert.
    const Archive archive;
    const CommandResult listed = archive.run("ls " + archive.path);
    REQUIRE(listed.status == 0);
    std::istringstream rows(listed.output);
    std::map<std::string, std::string> rowOf;
    for (std::string row; std::getline(rows, row);) rowOf[row.substr(0, row.find(' '))] = row;
    CHECK_THAT(rowOf["mic"], Catch::EndsWith("2026-11-28T03:00:00.000000000Z to 2026-11-28T03:00:02.000000000Z"));
    CHECK_THAT(rowOf["array"], Catch::EndsWith(" -") && !Catch::Contains("2026"));
    const CommandResult info = archive.run("info " + archive.path + " mic");
    CHECK_THAT(info.output, Catch::Contains("channel 0    1 stretch(es): [0.000000 s, 2.000000 s) = [2026-11-28T03:00:00.000000000Z, 2026-11-28T03:00:02.000000000Z)"));
    const CommandResult arrayInfo = archive.run("info " + archive.path + " array");
    CHECK_THAT(arrayInfo.output, Catch::Contains("channel 1    2 stretch(es): [0.000000 s, 1.000000 s), [1.200000 s, 2.000000 s)\n"));
    const CommandResult got = archive.run("get " + archive.path + " mic --from 2026-11-28T03:00:01Z --to 1.1");
    REQUIRE(got.status == 0);
    CHECK(got.output == "channel 0  [1.000000 s, 1.100000 s) = [2026-11-28T03:00:01.000000000Z, 2026-11-28T03:00:01.100000000Z)  stored  800 samples, rms " +
                            got.output.substr(got.output.rfind(' ') + 1));
    // The items of a wall-clock stream carry their start in UTC; the media-clock events do not.
    ArchiveStore store(archive.path, ArchiveAccess::Record);
    const std::int64_t taps = store.openStream({.name = "taps", .kind = ArchivedStreamInfo::Kind::Items, .rateHz = kRate, .zeroTimeNs = kWallZero,
                                                .clock = "wall", .sampleType = "json", .node = "det"});
    store.appendItem(taps, 12000, 0, json{{"kind", "event"}, {"label", "tap"}}.dump());
    store.commit();
    const CommandResult tapLines = archive.run("get " + archive.path + " taps");
    REQUIRE(tapLines.status == 0);
    CHECK(json::parse(tapLines.output).at("time_utc") == "2026-11-28T03:00:01.500000000Z");
    const CommandResult eventLines = archive.run("get " + archive.path + " events --from 0 --to 0.1");
    REQUIRE(eventLines.status == 0);
    CHECK_FALSE(json::parse(eventLines.output).contains("time_utc"));
}

TEST_CASE("isochron-archive prune drops what ends before the time, whole pieces only", "[archive][cli]") {
    const Archive archive;
    const CommandResult pruned = archive.run("prune " + archive.path + " array --before 0.5");
    REQUIRE(pruned.status == 0);
    CHECK_THAT(pruned.output, Catch::Contains("dropped 10 piece(s)"));  // 5 per channel end at or before sample 4000
    ArchiveStore store(archive.path, ArchiveAccess::Read);
    CHECK(store.extent("array")->start == 4000);
    CHECK(store.extent("mic")->start == 0);  // other streams untouched
    const CommandResult straddling = archive.run("prune " + archive.path + " array --before 0.55");
    CHECK_THAT(straddling.output, Catch::Contains("dropped 0 piece(s)"));
}

namespace {

/// The archive file's bytes, to check a refused export left it untouched.
std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("isochron-archive export refuses to write over the archive itself, also through a symlink or a hard link", "[archive][cli]") {
    const Archive archive;
    const std::string link = archive.folder.file("link.sqlite"), hardLink = archive.folder.file("hard.sqlite");
    std::filesystem::create_symlink(archive.path, link);
    std::filesystem::create_hard_link(archive.path, hardLink);
    const std::string before = fileBytes(archive.path);
    for (const std::string& output : {archive.path, link, hardLink, archive.folder.file("./sub/../session.sqlite")}) {
        for (const char* format : {"wav", "flac", "jsonl"}) {
            INFO(output << " as " << format);
            std::filesystem::create_directories(archive.folder.file("sub"));
            const CommandResult exported = archive.run("export " + archive.path + " mic --format " + format + " --output " + output);
            CHECK(exported.status == 1);
            CHECK_THAT(exported.output, Catch::Contains("is the archive") && Catch::Contains("would destroy the recording"));
            CHECK(fileBytes(archive.path) == before);
            CHECK_FALSE(std::filesystem::exists(archive.path + ".partial"));
        }
    }
    CHECK(archive.run("ls " + archive.path).status == 0);
}

TEST_CASE("isochron-archive refuses a standard output that is the archive itself (1<>ARCHIVE), leaving it byte for byte", "[archive][cli]") {
    const Archive archive;
    const std::string before = fileBytes(archive.path), errors = archive.folder.file("errors.txt");
    // Every command writes to standard output; `export --output -` wrote the items into the file.
    for (const std::string command : {"ls " + archive.path, "info " + archive.path + " mic", "get " + archive.path + " events",
                                      "export " + archive.path + " events --format jsonl --output -", "export " + archive.path + " mic --format wav --output -",
                                      "prune " + archive.path + " mic --before 0.5"}) {
        INFO(command);
        // The shell opens the archive read-write on descriptor 1 without truncating it.
        const int raw = std::system((archiveBinary() + " " + command + " 1<>" + archive.path + " 2>" + errors).c_str());
        CHECK((WIFEXITED(raw) && WEXITSTATUS(raw) == 1));
        CHECK_THAT(fileBytes(errors), Catch::Contains("standard output is the archive '" + archive.path + "'") &&
                                          Catch::Contains("would destroy the recording"));
        CHECK(fileBytes(archive.path) == before);
    }
    CHECK(archive.run("ls " + archive.path).status == 0);
}

TEST_CASE("isochron-archive export writes a .partial file and renames it: an existing file is replaced whole, a symlink written through", "[archive][cli]") {
    const Archive archive;
    const std::string output = archive.folder.file("out.jsonl"), link = archive.folder.file("link.jsonl");
    { std::ofstream(output) << "old\n"; }
    std::filesystem::create_symlink(output, link);
    const CommandResult exported = archive.run("export " + archive.path + " events --format jsonl --output " + link);
    REQUIRE(exported.status == 0);
    CHECK(std::filesystem::is_symlink(link));
    CHECK_FALSE(std::filesystem::exists(output + ".partial"));
    std::ifstream in(output);
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) {
        CHECK(json::parse(line).at("item").at("label") == "clap");
        ++lines;
    }
    CHECK(lines == 10);
}

TEST_CASE("isochron-archive refuses a FIFO as --output, says what a non-file archive path is, and refuses an option given twice", "[archive][cli]") {
    const Archive archive;
    const std::string pipe = archive.folder.file("pipe");
    REQUIRE(mkfifo(pipe.c_str(), 0600) == 0);
    // Without the check, opening the pipe waits for a reader: `timeout` turns that into exit 124.
    const CommandResult toPipe = runProgram("timeout 20 " + archiveBinary(), "export " + archive.path + " events --format jsonl --output " + pipe);
    CHECK(toPipe.status == 1);
    CHECK_THAT(toPipe.output, Catch::Contains("--output: '" + pipe + "' is a named pipe (FIFO)"));
    const CommandResult device = archive.run("ls /dev/null");
    CHECK(device.status == 1);
    CHECK_THAT(device.output, Catch::Contains("'/dev/null' is a device, not an archive file"));
    const CommandResult folder = archive.run("ls " + archive.folder.path.string());
    CHECK(folder.status == 1);
    CHECK_THAT(folder.output, Catch::Contains("is a folder, not an archive file"));
    const CommandResult twice = archive.run("get " + archive.path + " array --from 1 --from 0.5");
    CHECK(twice.status == 1);
    CHECK_THAT(twice.output, Catch::Contains("--from given twice (1 and 0.5)"));
}

TEST_CASE("an archive opened to record into a named pipe or a device is refused at once, saying what the path is", "[archive]") {
    const TempFolder folder;
    const std::string pipe = folder.file("pipe");
    REQUIRE(mkfifo(pipe.c_str(), 0600) == 0);
    // Recording into the pipe failed late, in the run, with SQLite's "disk I/O error".
    CHECK_THROWS_WITH(ArchiveStore(pipe, ArchiveAccess::Record), Catch::Contains("'" + pipe + "' is a named pipe (FIFO), not an archive file"));
    CHECK_THROWS_WITH(ArchiveStore("/dev/null", ArchiveAccess::Record), Catch::Contains("'/dev/null' is a device, not an archive file"));
    CHECK_THROWS_WITH(ArchiveStore(folder.path.string(), ArchiveAccess::Record), Catch::Contains("is a folder, not an archive file"));
}

TEST_CASE("an archive opened to record into another application's database refuses it, byte for byte as it was; an empty one becomes an archive",
          "[archive]") {
    const TempFolder folder;
    // user_version 0 with tables of its own: recording added streams/segments/events and set user_version 3.
    // user_version 2 without archive tables: it was switched to WAL mode before the upgrade failed.
    // A view and nothing else: taken for an empty file, it was adopted as an archive.
    const std::string places = folder.file("places.sqlite"), versioned = folder.file("versioned.sqlite"), empty = folder.file("empty.sqlite");
    const std::string viewOnly = folder.file("view.sqlite");
    const auto sql = [](const std::string& path, const char* text) {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const int result = sqlite3_exec(db, text, nullptr, nullptr, nullptr);
        sqlite3_close(db);
        REQUIRE(result == SQLITE_OK);
    };
    sql(places, "CREATE TABLE moz_places(url TEXT); CREATE TABLE moz_bookmarks(id INTEGER); INSERT INTO moz_places VALUES ('x');");
    sql(versioned, "CREATE TABLE notes(text TEXT); PRAGMA user_version = 2;");
    sql(empty, "CREATE TABLE scratch(x); DROP TABLE scratch;");
    sql(viewOnly, "CREATE VIEW answer AS SELECT 42;");
    const auto bytes = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string placesBytes = bytes(places), versionedBytes = bytes(versioned), viewOnlyBytes = bytes(viewOnly);
    const auto refusal = Catch::Contains("'" + places + "' is not a stream archive (a SQLite database holding table moz_places, table moz_bookmarks)");
    CHECK_THROWS_WITH(ArchiveStore(places, ArchiveAccess::Record), refusal);
    CHECK_THROWS_WITH(refuseUnrecordableArchive(places), refusal);
    const auto versionedRefusal = Catch::Contains("'" + versioned + "' is not a stream archive (user_version 2 but no archive tables)");
    CHECK_THROWS_WITH(ArchiveStore(versioned, ArchiveAccess::Record), versionedRefusal);
    CHECK_THROWS_WITH(refuseUnrecordableArchive(versioned), versionedRefusal);
    const auto viewRefusal = Catch::Contains("'" + viewOnly + "' is not a stream archive (a SQLite database holding view answer)");
    CHECK_THROWS_WITH(ArchiveStore(viewOnly, ArchiveAccess::Record), viewRefusal);
    CHECK_THROWS_WITH(refuseUnrecordableArchive(viewOnly), viewRefusal);
    CHECK(bytes(places) == placesBytes);
    CHECK(bytes(versioned) == versionedBytes);
    CHECK(bytes(viewOnly) == viewOnlyBytes);
    for (const std::string& path : {places, versioned, viewOnly}) {
        CHECK_FALSE(std::filesystem::exists(path + "-wal"));
        CHECK_FALSE(std::filesystem::exists(path + "-shm"));
    }
    // A path that names nothing yet, a 0-byte file and a database without tables pass, and record.
    const std::string fresh = folder.file("fresh.sqlite"), zero = folder.file("zero.sqlite");
    std::ofstream{zero};
    for (const std::string& path : {fresh, zero, empty}) {
        INFO(path);
        CHECK_NOTHROW(refuseUnrecordableArchive(path));
        ArchivedStreamInfo info;
        info.name = "s";
        info.rateHz = 8000;
        ArchiveStore store(path, ArchiveAccess::Record);
        store.openStream(info);
        CHECK(store.stream("s"));
    }
    CHECK_NOTHROW(refuseUnrecordableArchive(fresh));  // an archive, now
    CHECK_THROWS_WITH(refuseUnrecordableArchive(folder.file("missing/a.sqlite")), Catch::Contains("the folder '" + folder.file("missing") + "' does not exist"));
}

TEST_CASE("isochron-archive export: a float WAV is the same bytes every time, and a failed JSON-lines export says why", "[archive][cli]") {
    const Archive archive;
    {
        INFO("libsndfile's PEAK chunk carried the time of writing: equal exports differed in bytes");
        const std::string output = archive.folder.file("peakless.wav");
        REQUIRE(archive.run("export " + archive.path + " mic --format wav --output " + output).status == 0);
        const std::string bytes = readText(output);
        CHECK(bytes.find("PEAK") == std::string::npos);
        INFO("written as an RF64 that stays a plain WAV below 4 GiB: room for 64-bit sizes is kept in a JUNK chunk");
        CHECK(bytes.starts_with("RIFF"));
        CHECK(bytes.substr(12, 4) == "JUNK");
    }
    {
        INFO("it said only \"cannot write '/dev/full'\"");
        const CommandResult full = archive.run("export " + archive.path + " events --format jsonl --output /dev/full");
        CHECK(full.status == 1);
        CHECK_THAT(full.output, Catch::Contains("cannot write '/dev/full': No space left on device"));
    }
}

TEST_CASE("isochron-archive export stopped by a signal removes its unfinished file and says so", "[archive][cli]") {
    // Ctrl-C left OUT.partial beside the output, without a word. The export is frozen (SIGSTOP) while
    // its partial file exists, then signalled: what the handler does no longer depends on timing. An
    // export that finished before it was frozen is retried with a longer stream.
    const TempFolder folder;
    const std::string path = folder.file("long.sqlite"), output = folder.file("out.jsonl"), partial = output + ".partial";
    const std::string errors = folder.file("stderr");
    std::int64_t length = 1 << 20;
    for (int attempt = 0;; ++attempt) {
        REQUIRE(attempt < 6);
        std::filesystem::remove(path);
        {
            ArchiveStore store(path, ArchiveAccess::Record);
            const std::int64_t stream = store.openStream({.name = "long", .rateHz = kRate, .node = "rec"});
            const std::vector<float> samples(static_cast<std::size_t>(length), 0.25f);
            store.appendSamples(stream, 0, 0, std::span(samples));
            store.commit();
        }
        const pid_t pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            alarm(120);
            const int err = ::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (err < 0 || dup2(err, STDERR_FILENO) < 0) _exit(127);
            execl(ISOCHRON_ARCHIVE_BINARY, ISOCHRON_ARCHIVE_BINARY, "export", path.c_str(), "long", "--format", "jsonl", "--output", output.c_str(),
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        int raw = 0;
        bool exited = false;
        while (!std::filesystem::exists(partial) && !(exited = waitpid(pid, &raw, WNOHANG) == pid)) usleep(200);
        if (!exited) {
            kill(pid, SIGSTOP);
            REQUIRE(waitpid(pid, &raw, WUNTRACED) == pid);
            exited = !WIFSTOPPED(raw);
        }
        if (exited || !std::filesystem::exists(partial)) {
            // Finished (or renamed its file) before it was frozen: try a longer stream.
            if (!exited) {
                kill(pid, SIGKILL);
                kill(pid, SIGCONT);
                waitpid(pid, &raw, 0);
            }
            std::filesystem::remove(output);
            length *= 4;
            continue;
        }
        REQUIRE(kill(pid, SIGINT) == 0);
        REQUIRE(kill(pid, SIGCONT) == 0);
        REQUIRE(waitpid(pid, &raw, 0) == pid);
        CHECK(WIFSIGNALED(raw));
        CHECK(WTERMSIG(raw) == SIGINT);
        CHECK_FALSE(std::filesystem::exists(partial));
        CHECK_FALSE(std::filesystem::exists(output));
        CHECK_THAT(readText(errors), Catch::Contains("export stopped by a signal: removed the unfinished file '" + partial + "'"));
        break;
    }
}

TEST_CASE("export --format jsonl of a signal, read a chunk at a time, writes the lines of one read of the interval, a long gap as one line",
          "[archive][cli]") {
    // Pieces that end inside the export's chunks of 65 536 samples, gaps shorter and much longer than a
    // chunk, two channels holding different stretches, and an interval starting inside a piece.
    const TempFolder folder;
    const std::string path = folder.file("sparse.sqlite"), output = folder.file("sparse.jsonl");
    const std::vector<std::pair<std::int64_t, std::int64_t>> stretches[2] = {{{0, 70'000}, {70'100, 90'000}, {400'000, 530'000}},
                                                                             {{5'000, 140'000}, {600'000, 610'000}}};
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        const std::int64_t stream = store.openStream({.name = "sparse", .rateHz = kRate, .channels = 2, .node = "rec"});
        for (int channel = 0; channel < 2; ++channel) {
            for (const auto& [start, end] : stretches[channel]) {
                std::vector<float> samples(static_cast<std::size_t>(end - start));
                for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>((start + static_cast<std::int64_t>(i)) % 1000) + 0.5f * static_cast<float>(channel);
                store.appendSamples(stream, channel, start, samples);
            }
        }
        store.commit();
    }
    const std::int64_t l = 3, h = 610'000;
    const CommandResult exported = runProgram(archiveBinary(), "export " + path + " sparse --from " + std::to_string(static_cast<double>(l) / kRate) +
                                                                   " --to " + std::to_string(static_cast<double>(h) / kRate) + " --format jsonl --output " + output);
    INFO(exported.output);
    REQUIRE(exported.status == 0);
    std::vector<std::string> expected;
    ArchiveStore reader(path, ArchiveAccess::Read);
    for (int channel = 0; channel < 2; ++channel) {
        for (const ArchivedPiece& piece : reader.get("sparse", channel, l, h)) {
            json line = {{"channel", channel}, {"start", piece.start}, {"length", piece.length}, {"gap", piece.isGap()}};
            if (!piece.isGap()) {
                const std::span<const float> samples = piece.samples.materialize();
                line["samples"] = std::vector<float>(samples.begin(), samples.end());
            }
            expected.push_back(line.dump());
        }
    }
    std::ifstream lines(output);
    std::vector<std::string> written;
    for (std::string line; std::getline(lines, line);) written.push_back(line);
    REQUIRE(written.size() == expected.size());
    for (std::size_t i = 0; i < written.size(); ++i) CHECK(written[i] == expected[i]);
    // The gap [140 000, 600 000) of channel 1, 7 chunks long, is one line.
    CHECK(std::count_if(written.begin(), written.end(), [](const std::string& line) { return line.find("\"start\":140000") != std::string::npos; }) == 1);
}
