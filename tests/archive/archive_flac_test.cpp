// The "flac" representation: pieces exact at 16 or 24 bits are stored as FLAC (smaller), any other
// piece as f32, and every piece reads back bit for bit over random clipped intervals. The stored
// encodings and sizes are read with SQLite directly, not through ArchiveStore. Version 1 and 2
// archives (before representations, before the original rate) open, upgraded, and read. A long get
// (decoded on two threads) reads back bit for bit, a damaged FLAC piece is named (the first in time
// when several are), and a get that fails while the helper thread decodes leaves the reader whole.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <vector>

#include "engine/archive/archive_store.h"
#include "engine/archive/flac_batch.h"
#include "tests/support/test_files.h"

using namespace isochron;

namespace {

using isochron::test::TempFolder;

constexpr std::int64_t kPiece = 4000;  // less than ArchiveStore::pieceSamples(): one append, one stored piece

/// Five kinds of piece: a 16-bit sine, 24-bit noise, f32 noise, a 16-bit piece with one value of
/// 1.5, and a 24-bit piece with a NaN.
std::vector<std::vector<float>> pieces() {
    std::mt19937 random(99);
    std::uniform_int_distribution<int> code24(-(1 << 23), (1 << 23) - 1);
    std::uniform_real_distribution<float> any(-1.0f, 1.0f);
    std::vector<std::vector<float>> result(5, std::vector<float>(kPiece));
    for (std::int64_t i = 0; i < kPiece; ++i) {
        const auto s = static_cast<std::size_t>(i);
        result[0][s] = static_cast<float>(std::lrint(12000 * std::sin(0.05 * static_cast<double>(i)))) / 32768.0f;
        result[1][s] = static_cast<float>(code24(random)) / 8388608.0f;
        result[2][s] = any(random);
        result[3][s] = result[0][s];
        result[4][s] = result[1][s];
    }
    result[3][100] = 1.5f;
    result[4][7] = std::numeric_limits<float>::quiet_NaN();
    return result;
}

/// (encoding, bytes) of each stored piece in start order, read with SQLite itself.
std::vector<std::pair<std::string, std::int64_t>> storedEncodings(const std::string& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* query = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT encoding, length(samples) FROM segments ORDER BY start", -1, &query, nullptr) == SQLITE_OK);
    std::vector<std::pair<std::string, std::int64_t>> found;
    while (sqlite3_step(query) == SQLITE_ROW) {
        found.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(query, 0)), sqlite3_column_int64(query, 1));
    }
    sqlite3_finalize(query);
    sqlite3_close(db);
    return found;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("The flac representation stores exact pieces as FLAC and reads every piece back bit for bit", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("flac.sqlite");
    const std::vector<std::vector<float>> written = pieces();
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        const std::int64_t id = store.openStream({.name = "mic", .rateHz = 48000, .representation = "flac"});
        for (std::size_t p = 0; p < written.size(); ++p) store.appendSamples(id, 0, static_cast<std::int64_t>(p) * kPiece, written[p]);
        store.commit();
    }
    const auto encodings = storedEncodings(path);
    REQUIRE(encodings.size() == 5);
    CHECK(encodings[0].first == "flac16");
    CHECK(encodings[0].second < kPiece * 4 / 3);  // a 16-bit sine: well under a third of f32
    CHECK(encodings[1].first == "flac24");
    CHECK(encodings[1].second < kPiece * 4);
    CHECK(encodings[2].first == "f32");  // not exact at 24 bits
    CHECK(encodings[3].first == "f32");  // 1.5 is beyond FLAC's [-1, 1)
    CHECK(encodings[4].first == "f32");  // NaN

    ArchiveStore store(path, ArchiveAccess::Read);
    CHECK(store.stream("mic")->representation == "flac");
    std::mt19937 random(5);
    std::uniform_int_distribution<std::int64_t> index(0, 5 * kPiece);
    for (int trial = 0; trial < 200; ++trial) {
        std::int64_t l = index(random), h = index(random);
        if (l > h) std::swap(l, h);
        if (l == h) continue;
        std::int64_t next = l;
        for (const ArchivedPiece& piece : store.get("mic", 0, l, h)) {
            REQUIRE_FALSE(piece.isGap());
            REQUIRE(piece.start == next);
            const std::span<const float> samples = piece.samples.materialize();
            for (std::int64_t i = 0; i < piece.length; ++i) {
                const std::int64_t at = piece.start + i;
                REQUIRE(sameBits(samples[static_cast<std::size_t>(i)], written[static_cast<std::size_t>(at / kPiece)][static_cast<std::size_t>(at % kPiece)]));
            }
            next = piece.end();
        }
        REQUIRE(next == h);
    }
}

TEST_CASE("A version 1 archive opens, upgraded, and reads its f32 pieces", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("v1.sqlite");
    const std::vector<float> samples = {0.25f, -0.5f, 0.125f};
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const char* v1 =
            "PRAGMA journal_mode=WAL;"
            "CREATE TABLE streams (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, rate_hz REAL NOT NULL,"
            " zero_time_ns INTEGER NOT NULL, clock TEXT NOT NULL, channels INTEGER NOT NULL, sample_type TEXT NOT NULL, units TEXT NOT NULL,"
            " graph TEXT NOT NULL, node TEXT NOT NULL);"
            "CREATE TABLE segments (stream INTEGER NOT NULL, channel INTEGER NOT NULL, start INTEGER NOT NULL, length INTEGER NOT NULL, samples BLOB NOT NULL);"
            "CREATE INDEX segments_by_time ON segments(stream, channel, start);"
            "CREATE TABLE events (stream INTEGER NOT NULL, start INTEGER NOT NULL, length INTEGER NOT NULL, item TEXT NOT NULL);"
            "CREATE INDEX events_by_time ON events(stream, start);"
            "INSERT INTO streams VALUES (1, 'old', 'signal', 1000, 0, 'media', 1, 'f32', '', '', 'rec');"
            "PRAGMA user_version=1;";
        REQUIRE(sqlite3_exec(db, v1, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_stmt* insert = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, "INSERT INTO segments VALUES (1, 0, 10, 3, ?)", -1, &insert, nullptr) == SQLITE_OK);
        sqlite3_bind_blob(insert, 1, samples.data(), static_cast<int>(samples.size() * sizeof(float)), SQLITE_STATIC);
        REQUIRE(sqlite3_step(insert) == SQLITE_DONE);
        sqlite3_finalize(insert);
        sqlite3_close(db);
    }
    ArchiveStore store(path, ArchiveAccess::Read);
    CHECK(store.stream("old")->representation == "f32");
    CHECK(store.stream("old")->originalRateHz == 1000);
    const std::vector<ArchivedPiece> got = store.get("old", 0, 10, 13);
    REQUIRE(got.size() == 1);
    const std::span<const float> read = got[0].samples.materialize();
    CHECK(std::vector<float>(read.begin(), read.end()) == samples);
}

TEST_CASE("A version 2 archive reads as it is (each stream stored at the rate it was recorded at); a recorder upgrades it", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("v2.sqlite");
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const char* v2 =
            "PRAGMA journal_mode=WAL;"
            "CREATE TABLE streams (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, rate_hz REAL NOT NULL,"
            " zero_time_ns INTEGER NOT NULL, clock TEXT NOT NULL, channels INTEGER NOT NULL, sample_type TEXT NOT NULL, units TEXT NOT NULL,"
            " graph TEXT NOT NULL, node TEXT NOT NULL, representation TEXT NOT NULL DEFAULT 'f32');"
            "CREATE TABLE segments (stream INTEGER NOT NULL, channel INTEGER NOT NULL, start INTEGER NOT NULL, length INTEGER NOT NULL,"
            " samples BLOB NOT NULL, encoding TEXT NOT NULL DEFAULT 'f32');"
            "CREATE INDEX segments_by_time ON segments(stream, channel, start);"
            "CREATE TABLE events (stream INTEGER NOT NULL, start INTEGER NOT NULL, length INTEGER NOT NULL, item TEXT NOT NULL);"
            "CREATE INDEX events_by_time ON events(stream, start);"
            "INSERT INTO streams VALUES (1, 'a', 'signal', 16000, 0, 'media', 1, 'f32', '', '', 'rec', 'flac');"
            "INSERT INTO streams VALUES (2, 'b', 'signal', 44100, 5, 'media', 2, 'f32', '', '', 'rec', 'f32');"
            "PRAGMA user_version=2;";
        REQUIRE(sqlite3_exec(db, v2, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
    }
    const auto userVersion = [&] {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        sqlite3_stmt* version = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &version, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_step(version) == SQLITE_ROW);
        const int found = sqlite3_column_int(version, 0);
        sqlite3_finalize(version);
        sqlite3_close(db);
        return found;
    };
    ArchivedStreamInfo again;
    {
        // Reading never writes: the file stays version 2, its missing column read as its upgrade fills it.
        ArchiveStore store(path, ArchiveAccess::Read);
        CHECK(store.stream("a")->originalRateHz == 16000);
        CHECK(store.stream("a")->representation == "flac");
        CHECK(store.stream("b")->originalRateHz == 44100);
        again = *store.stream("b");
    }
    CHECK(userVersion() == 2);
    {
        // Recording again into an upgraded stream at its rate is accepted (the same stream).
        ArchiveStore store(path, ArchiveAccess::Record);
        CHECK(store.stream("b")->originalRateHz == 44100);
        CHECK(store.openStream(again) == 2);
    }
    CHECK(userVersion() == 5);
}

TEST_CASE("A stream recorded downsampled is not the same stream as one recorded at its stored rate", "[archive]") {
    TempFolder folder;
    ArchiveStore store(folder.file("rates.sqlite"), ArchiveAccess::Record);
    ArchivedStreamInfo downsampled{.name = "array", .rateHz = 16000, .channels = 1, .node = "rec", .representation = "downsample", .originalRateHz = 48000};
    store.openStream(downsampled);
    ArchivedStreamInfo direct = downsampled;
    direct.representation = "f32";
    direct.originalRateHz = 0;
    try {
        store.openStream(direct);
        FAIL("a stream recorded at 16 kHz was accepted into one downsampled from 48 kHz");
    } catch (const ArchiveError& e) {
        CHECK(std::string(e.what()).find("downsampled from 48000 Hz") != std::string::npos);
    }
    CHECK(store.stream("array")->originalRateHz == 48000);
}

TEST_CASE("A get long enough to decode on two threads reads every piece bit for bit, and a damaged piece is named", "[archive]") {
    TempFolder folder;
    const std::string path = folder.file("long.sqlite");
    // Appends of random lengths (the store cuts the longer ones into pieces of pieceSamples(), the
    // last one short), alternately a 16-bit sine, 24-bit noise and, now and then, f32 noise among them.
    std::mt19937 random(17);
    std::uniform_int_distribution<std::int64_t> pieceLength(500, 9000);
    std::uniform_int_distribution<int> code24(-(1 << 23), (1 << 23) - 1);
    std::uniform_real_distribution<float> any(-1.0f, 1.0f);
    std::vector<float> written;
    std::vector<std::int64_t> starts;
    std::int64_t pieceSamples = 0;
    {
        ArchiveStore store(path, ArchiveAccess::Record);
        pieceSamples = store.pieceSamples();
        const std::int64_t id = store.openStream({.name = "mic", .rateHz = 48000, .representation = "flac"});
        for (int p = 0; p < 60; ++p) {
            std::vector<float> piece(static_cast<std::size_t>(pieceLength(random)));
            for (std::size_t i = 0; i < piece.size(); ++i) {
                const double t = static_cast<double>(written.size() + i);
                piece[i] = p % 3 == 0 ? static_cast<float>(std::lrint(20000 * std::sin(0.01 * t))) / 32768.0f
                         : p % 7 == 1 ? any(random)
                                      : static_cast<float>(code24(random)) / 8388608.0f;
            }
            starts.push_back(static_cast<std::int64_t>(written.size()));
            store.appendSamples(id, 0, starts.back(), piece);
            written.insert(written.end(), piece.begin(), piece.end());
        }
        store.commit();
    }
    const auto total = static_cast<std::int64_t>(written.size());
    REQUIRE(total > 2 * FlacBatch::kTwoThreadSamples);
    const auto readsBack = [&](ArchiveStore& store, std::int64_t l, std::int64_t h) {
        std::int64_t next = l;
        for (const ArchivedPiece& piece : store.get("mic", 0, l, h)) {
            REQUIRE_FALSE(piece.isGap());
            REQUIRE(piece.start == next);
            const std::span<const float> samples = piece.samples.materialize();
            for (std::int64_t i = 0; i < piece.length; ++i) REQUIRE(sameBits(samples[static_cast<std::size_t>(i)], written[static_cast<std::size_t>(piece.start + i)]));
            next = piece.end();
        }
        REQUIRE(next == h);
    };
    {
        ArchiveStore store(path, ArchiveAccess::Read);
        readsBack(store, 0, total);
        std::uniform_int_distribution<std::int64_t> index(0, total);
        for (int trial = 0; trial < 30; ++trial) {
            std::int64_t l = index(random), h = index(random);
            if (l > h) std::swap(l, h);
            if (l < h) readsBack(store, l, h);
        }
    }

    // Two pieces damaged: the first of append 30 (a 16-bit sine) has four bytes in its middle
    // overwritten, the first of append 40 (24-bit noise) one bit flipped in its last byte, the last
    // frame's CRC. A get over either names it, and the same reader goes on reading the pieces around them.
    const auto damage = [&](std::int64_t start, const auto& change) {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        sqlite3_stmt* query = nullptr;
        const std::string select = "SELECT samples FROM segments WHERE encoding != 'f32' AND start = " + std::to_string(start);
        REQUIRE(sqlite3_prepare_v2(db, select.c_str(), -1, &query, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_step(query) == SQLITE_ROW);
        const auto* blob = static_cast<const unsigned char*>(sqlite3_column_blob(query, 0));
        std::vector<unsigned char> bytes(blob, blob + sqlite3_column_bytes(query, 0));
        sqlite3_finalize(query);
        change(bytes);
        const std::string update = "UPDATE segments SET samples = ? WHERE start = " + std::to_string(start);
        REQUIRE(sqlite3_prepare_v2(db, update.c_str(), -1, &query, nullptr) == SQLITE_OK);
        sqlite3_bind_blob(query, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
        REQUIRE(sqlite3_step(query) == SQLITE_DONE);
        sqlite3_finalize(query);
        REQUIRE(sqlite3_changes(db) == 1);
        sqlite3_close(db);
    };
    damage(starts[30], [](std::vector<unsigned char>& bytes) { std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2), 4, 0x5a); });
    damage(starts[40], [](std::vector<unsigned char>& bytes) { bytes.back() ^= 1; });
    ArchiveStore store(path, ArchiveAccess::Read);
    for (const int damaged : {30, 40}) {
        try {
            store.get("mic", 0, starts[static_cast<std::size_t>(damaged)] - 1, starts[static_cast<std::size_t>(damaged) + 1]);
            FAIL("the damaged FLAC piece " << damaged << " was read");
        } catch (const ArchiveError& e) {
            const std::int64_t appended = starts[static_cast<std::size_t>(damaged) + 1] - starts[static_cast<std::size_t>(damaged)];
            CHECK(std::string(e.what()).find("the piece at sample " + std::to_string(starts[static_cast<std::size_t>(damaged)]) + " does not decode as FLAC of " +
                                             std::to_string(std::min(appended, pieceSamples)) + " samples") != std::string::npos);
        }
    }
    // Over all of it (two threads, each piece decoded by whichever is free), the first damaged piece
    // in time is the one named.
    try {
        store.get("mic", 0, 0, total);
        FAIL("the damaged FLAC pieces were read");
    } catch (const ArchiveError& e) {
        CHECK(std::string(e.what()).find("the piece at sample " + std::to_string(starts[30]) + " does not decode") != std::string::npos);
    }
    readsBack(store, 0, starts[30]);
    readsBack(store, starts[31], starts[40]);
    readsBack(store, starts[41], total);

    // A get that fails while reading its rows (piece 55's encoding unknown), after the pieces before
    // it went to the helper thread, leaves the reader whole: the next long gets read bit for bit.
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const std::string update = "UPDATE segments SET encoding = 'flac99' WHERE start = " + std::to_string(starts[55]);
        REQUIRE(sqlite3_exec(db, update.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_changes(db) == 1);
        sqlite3_close(db);
    }
    REQUIRE(starts[55] - starts[41] >= FlacBatch::kTwoThreadSamples);
    try {
        store.get("mic", 0, starts[41], total);
        FAIL("the piece of an unknown encoding was read");
    } catch (const ArchiveError& e) {
        CHECK(std::string(e.what()).find("the piece at sample " + std::to_string(starts[55]) + " has an unknown encoding") != std::string::npos);
    }
    readsBack(store, 0, starts[30]);
    readsBack(store, starts[41], starts[55]);
}
