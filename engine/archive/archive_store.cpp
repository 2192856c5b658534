#include "engine/archive/archive_store.h"
#include "engine/archive/archive_file_access.h"
#include "engine/archive/archive_totals.h"
#include "engine/archive/flac_batch.h"
#include "engine/archive/flac_piece.h"
#include "engine/archive/piece_layout.h"
#include "engine/files/file_kind.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <utility>

namespace isochron {
namespace {

/// The archive's schema version, kept in SQLite's user_version (0 = a new, empty file). Version 2
/// added streams.representation and segments.encoding, version 3 streams.original_rate_hz, version 4
/// the running totals (archive_totals.h), version 5 streams.geometry and streams.producer. An older
/// file is upgraded when opened for recording (filling the totals reads every row); reading it never
/// writes it (the queries stand in for its missing columns).
constexpr int kSchemaVersion = 5;

/// The first version that keeps running totals.
constexpr int kTotalsVersion = 4;

/// Rows one DELETE of prune() removes at most (256 pieces of 4 081 f32 samples: about 4 MiB).
constexpr std::int64_t kPruneRowsPerStatement = 256;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS streams (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('signal', 'items')),
  rate_hz REAL NOT NULL,
  zero_time_ns INTEGER NOT NULL,
  clock TEXT NOT NULL,
  channels INTEGER NOT NULL,
  sample_type TEXT NOT NULL,
  units TEXT NOT NULL,
  graph TEXT NOT NULL,
  node TEXT NOT NULL,
  representation TEXT NOT NULL DEFAULT 'f32',
  original_rate_hz REAL NOT NULL DEFAULT 0,
  geometry TEXT NOT NULL DEFAULT '',
  producer TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS segments (
  stream INTEGER NOT NULL REFERENCES streams(id),
  channel INTEGER NOT NULL,
  start INTEGER NOT NULL,
  length INTEGER NOT NULL,
  samples BLOB NOT NULL,
  encoding TEXT NOT NULL DEFAULT 'f32'
);
CREATE INDEX IF NOT EXISTS segments_by_time ON segments(stream, channel, start);
CREATE TABLE IF NOT EXISTS events (
  stream INTEGER NOT NULL REFERENCES streams(id),
  start INTEGER NOT NULL,
  length INTEGER NOT NULL,
  item TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_time ON events(stream, start);
)sql";

/// The streams columns streamFromRow reads, for a file of schema `version`: a column the file does not
/// have yet reads as what its upgrade would fill in.
std::string streamColumns(std::int64_t version) {
    return std::string("id, name, kind, rate_hz, zero_time_ns, clock, channels, sample_type, units, graph, node, ") +
           (version >= 2 ? "representation, " : "'f32', ") + (version >= 3 ? "original_rate_hz, " : "rate_hz, ") +
           (version >= 5 ? "geometry, producer" : "'', ''");
}

std::string kindName(ArchivedStreamInfo::Kind kind) { return kind == ArchivedStreamInfo::Kind::Signal ? "signal" : "items"; }

/// ", downsampled from R Hz" for a stream stored below the rate it was recorded at, else nothing.
std::string originalRateText(const ArchivedStreamInfo& info) {
    if (info.originalRate() == info.rateHz) return {};
    std::ostringstream text;
    text << ", downsampled from " << info.originalRate() << " Hz";
    return text.str();
}

/// SQLite's message for the last failure on `db`, saying why when the disk refused a write (SQLite
/// keeps no errno for it: ENOSPC reads "database or disk is full", EFBIG and EIO "disk I/O error").
std::string failureText(sqlite3* db, int result) {
    std::string message = sqlite3_errmsg(db);
    if (message.empty()) message = sqlite3_errstr(result);
    const int code = sqlite3_extended_errcode(db);
    if (code == SQLITE_IOERR_WRITE || code == SQLITE_IOERR_FSYNC || code == SQLITE_IOERR_TRUNCATE) {
        message += " (the disk refused a write: full, over a file size limit, or failing)";
    }
    return message;
}

/// Whether the last failure on `db` was another connection holding the write lock past the wait.
bool isBusy(sqlite3* db) { return (sqlite3_extended_errcode(db) & 0xff) == SQLITE_BUSY; }

/// The message for the archive `path` found damaged, SQLite's `detail` kept.
std::string damagedText(const std::string& path, const std::string& detail) {
    return "archive '" + path + "' is damaged (SQLite: " + detail +
           "): it was cut short or overwritten, e.g. copied while being recorded; use a complete copy of it (the sqlite3 tool's "
           "'.recover' command may save what it still holds)";
}

/// The whole message for `doing` (e.g. "a query failed: ") failing on the archive `path`: a file that
/// is no SQLite database, or a damaged one, is called that with what to do, SQLite's own words kept as
/// a detail; any other failure is "archive 'path': <doing><SQLite's message>".
std::string archiveFailureText(sqlite3* db, int result, const std::string& path, const std::string& doing) {
    const std::string message = failureText(db, result);
    switch (sqlite3_extended_errcode(db) & 0xff) {
        case SQLITE_NOTADB:
            return "'" + path + "' is not a stream archive: it is not an SQLite database at all (SQLite: " + message +
                   "); give an archive io.archive_sink recorded (or, to record one, a new file name)";
        case SQLITE_CORRUPT:
            return damagedText(path, message);
        default:
            return "archive '" + path + "': " + doing + message;
    }
}

/// Throws the failure of the last call on `db` (of the archive `path`) while `doing` (may be empty):
/// ArchiveDiskFullError for a full disk, ArchiveBusyError for a write lock held past the wait, else ArchiveError.
[[noreturn]] void throwFailure(sqlite3* db, int result, const std::string& path, const std::string& doing) {
    if ((sqlite3_extended_errcode(db) & 0xff) == SQLITE_FULL) {
        throw ArchiveDiskFullError("archive '" + path + "': the disk holding it is full (SQLite: " + failureText(db, result) + ")");
    }
    const std::string message = archiveFailureText(db, result, path, doing.empty() ? "" : doing + " failed: ");
    if (isBusy(db)) throw ArchiveBusyError(message);
    throw ArchiveError(message);
}

/// One prepared statement, reset after each use. [one thread at a time]
class Statement {
public:
    Statement(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
        if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement_, nullptr) != SQLITE_OK) fail("preparing a query");
    }
    ~Statement() { sqlite3_finalize(statement_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value) { return check(sqlite3_bind_int64(statement_, index, value)); }
    Statement& bind(int index, double value) { return check(sqlite3_bind_double(statement_, index, value)); }
    Statement& bind(int index, const std::string& text) {
        return check(sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT));
    }
    Statement& bindBlob(int index, const void* data, std::size_t bytes) {
        return check(sqlite3_bind_blob64(statement_, index, data, bytes, SQLITE_STATIC));
    }

    /// Advance to the next row; false when done (the statement is then reset for reuse).
    bool step() {
        const int result = sqlite3_step(statement_);
        if (result == SQLITE_ROW) return true;
        sqlite3_reset(statement_);
        sqlite3_clear_bindings(statement_);
        if (result != SQLITE_DONE) fail("a query", result);
        return false;
    }
    /// Run a statement that returns no rows.
    void run() {
        while (step()) {}
    }
    /// Stop reading rows (the statement is reset for reuse).
    void reset() {
        sqlite3_reset(statement_);
        sqlite3_clear_bindings(statement_);
    }

    std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
    double real(int column) const { return sqlite3_column_double(statement_, column); }
    bool isNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
    std::string text(int column) const {
        const auto* chars = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
        return chars ? std::string(chars, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
    }
    std::span<const std::byte> blob(int column) const {
        const auto* bytes = static_cast<const std::byte*>(sqlite3_column_blob(statement_, column));
        return {bytes, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
    }

private:
    Statement& check(int result) {
        if (result != SQLITE_OK) fail("binding a value", result);
        return *this;
    }
    [[noreturn]] void fail(const char* doing, int result = SQLITE_ERROR) {
        // The error code and message before the reset, which may replace them.
        const int code = sqlite3_extended_errcode(db_);
        const std::string message = archiveFailureText(db_, result, path_, std::string(doing) + " failed: ");
        const std::string detail = failureText(db_, result);
        reset();
        if ((code & 0xff) == SQLITE_FULL) throw ArchiveDiskFullError("archive '" + path_ + "': the disk holding it is full (SQLite: " + detail + ")");
        if ((code & 0xff) == SQLITE_BUSY) throw ArchiveBusyError(message);
        throw ArchiveError(message);
    }

    sqlite3* db_;
    const std::string& path_;
    sqlite3_stmt* statement_ = nullptr;
};

/// "'<path>' is <kind>, not an archive file ..." for a folder, a device or a pipe (SQLite failed late
/// with "disk I/O error"); "" for a regular file or nothing.
std::string nonArchiveFileKindProblem(const std::string& path) {
    const std::string kind = nonRegularFileKind(path);
    return kind.empty() ? kind : "'" + path + "' is " + kind + ", not an archive file (an archive is a regular file)";
}

/// One entry of a database's schema: a table, view, index or trigger.
struct SchemaObject {
    std::string type;
    std::string name;
};

/// The objects in `db`'s schema that the user made (not SQLite's own), in the order SQLite lists them.
std::vector<SchemaObject> schemaObjects(sqlite3* db, const std::string& path) {
    Statement query(db, "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid", path);
    std::vector<SchemaObject> objects;
    while (query.step()) objects.push_back({query.text(0), query.text(1)});
    return objects;
}

/// Why the database `db` at `path`, of schema version `version` (its user_version), is not one to
/// record into or read as an archive, or nothing. Reads only: asked before anything is written, so a
/// file that is refused stays byte for byte as it was.
std::optional<std::string> foreignDatabaseProblem(sqlite3* db, const std::string& path, std::int64_t version) {
    const std::vector<SchemaObject> objects = schemaObjects(db, path);
    if (version == 0 && !objects.empty()) {
        // Another application's database (or a typo in the path): recording added the archive's tables
        // to it and set its user_version. A view, index or trigger alone makes it one too.
        std::string listed;
        for (std::size_t i = 0; i < objects.size() && i < 3; ++i) listed += (i ? ", " : "") + objects[i].type + " " + objects[i].name;
        if (objects.size() > 3) listed += ", ...";
        return "'" + path + "' is not a stream archive (a SQLite database holding " + listed +
               "); it is left as it is: give a new file or an archive";
    }
    if (version > kSchemaVersion || version < 0) {
        return "archive '" + path + "' has schema version " + std::to_string(version) + "; this build reads version " + std::to_string(kSchemaVersion);
    }
    const auto streamsTable = [](const SchemaObject& object) { return object.type == "table" && object.name == "streams"; };
    if (version != 0 && std::find_if(objects.begin(), objects.end(), streamsTable) == objects.end()) {
        return "'" + path + "' is not a stream archive (user_version " + std::to_string(version) + " but no archive tables); it is left as it is";
    }
    return std::nullopt;
}

/// The user_version of the open database `db` (0 for a new or empty file).
std::int64_t schemaVersion(sqlite3* db, const std::string& path) {
    Statement version(db, "PRAGMA user_version", path);
    version.step();
    const std::int64_t found = version.integer(0);
    version.reset();
    return found;
}

/// The schema version of the open database `db` at `path`, read with its tables in one read
/// transaction (so a recorder creating them meanwhile, in another process, is seen wholly or not at
/// all: its tables without its version looked like another application's database). Throws
/// ArchiveError when the file is not one to record into or read as an archive (foreignDatabaseProblem).
std::int64_t inspectedVersion(sqlite3* db, const std::string& path) {
    const auto exec = [&](const char* sql) {
        if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) throwFailure(db, SQLITE_ERROR, path, "reading its schema");
    };
    exec("BEGIN");
    try {
        const std::int64_t version = schemaVersion(db, path);
        if (std::optional<std::string> problem = foreignDatabaseProblem(db, path, version)) throw ArchiveError(*problem);
        exec("COMMIT");
        return version;
    } catch (const ArchiveError&) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

/// Puts the database `db` at `path` in WAL mode (a no-op when it is). Switching a new file needs it to
/// itself, and SQLite answers "database is locked" at once, without the busy handler, while another
/// connection has it open: a second recorder creating the same new file at the same moment (two
/// processes, two ranks). So this waits as the busy handler would, up to 5 s, for the other to finish.
void switchToWal(sqlite3* db, const std::string& path) {
    constexpr int kWaitMs = 5000, kStepMs = 5;
    for (int waited = 0;; waited += kStepMs) {
        if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr) == SQLITE_OK) return;
        if (!isBusy(db) || waited >= kWaitMs) throwFailure(db, SQLITE_ERROR, path, "switching to WAL mode");
        sqlite3_sleep(kStepMs);
    }
}

/// Why `path` cannot be an archive because it is `-`, which names standard input or output for other
/// files of the project: an archive is a SQLite file read and written in place, never a stream. "" otherwise.
std::string standardStreamProblem(const std::string& path, bool recording) {
    if (path != "-") return {};
    return recording ? "an archive cannot be written to standard output ('-'): it is a SQLite file written in place; give a file path "
                       "(to get a recording onto standard output, record into a file, then `isochron-archive export FILE STREAM --output -`)"
                     : "an archive cannot be read from standard input ('-'): it is a SQLite file read in place; give the archive file's path";
}

/// Why an archive cannot be created at `path`, which names nothing yet: its folder is missing or is
/// not a folder; "" when it can.
std::string missingFolderProblem(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    if (fs::exists(fs::symlink_status(path, error))) return {};
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    if (fs::is_directory(folder, error)) return {};
    const std::string what = fs::exists(folder, error) ? "is not a folder" : "does not exist";
    return "cannot create archive '" + path + "': the folder '" + folder.string() + "' " + what;
}

}  // namespace

void refuseUnrecordableArchive(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) throw ArchiveError("no archive file given (an empty path)");
    if (const std::string problem = standardStreamProblem(path, true); !problem.empty()) throw ArchiveError(problem);
    if (const std::string problem = nonArchiveFileKindProblem(path); !problem.empty()) throw ArchiveError(problem);
    std::error_code error;
    const bool exists = fs::exists(path, error);
    if (!exists) {
        if (const std::string problem = missingFolderProblem(path); !problem.empty()) throw ArchiveError(problem);
    }
    if (const std::string problem = unwritableArchiveProblem(path); !problem.empty()) throw ArchiveError(problem);
    if (!exists) return;
    if (fs::file_size(path, error) == 0) return;  // a new archive's file, created empty
    sqlite3* db = nullptr;
    // Read-write without creating: closing it as the last connection removes the -wal and -shm files a
    // read-only connection would leave behind.
    const int opened = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    const std::unique_ptr<sqlite3, int (*)(sqlite3*)> closer(db, sqlite3_close_v2);
    if (opened != SQLITE_OK) throw ArchiveError("cannot open archive '" + path + "': " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(opened)));
    sqlite3_busy_timeout(db, 5000);  // a recorder in another process may be checkpointing
    inspectedVersion(db, path);
}

/// The SQLite connection and the statements the store reuses.
struct ArchiveStore::Connection {
    sqlite3* db = nullptr;
    std::unique_ptr<Statement> insertSegment, insertItem, findStream, streamEnd, itemsEnd, itemsEndAfterRow, nextStart, segmentsIn, itemsIn, itemPage;

    ~Connection() {
        insertSegment.reset();
        insertItem.reset();
        findStream.reset();
        streamEnd.reset();
        itemsEnd.reset();
        itemsEndAfterRow.reset();
        nextStart.reset();
        segmentsIn.reset();
        itemsIn.reset();
        itemPage.reset();
        sqlite3_close_v2(db);
    }

    /// Run SQL without results (schema, pragmas, transactions).
    void exec(const char* sql, const std::string& path) {
        char* error = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
            sqlite3_free(error);
            throwFailure(db, SQLITE_ERROR, path, "");
        }
    }
};

ArchiveStore::ArchiveStore(const std::string& path, ArchiveAccess access)
    : path_(path), access_(access), db_(std::make_unique<Connection>()), flac_(std::make_unique<FlacBatch>()) {
    if (path.empty()) throw ArchiveError("no archive file given (an empty path)");
    if (const std::string problem = standardStreamProblem(path, access == ArchiveAccess::Record); !problem.empty()) throw ArchiveError(problem);
    // A FIFO, a device or a folder is no archive, to read or to record into.
    if (const std::string problem = nonArchiveFileKindProblem(path); !problem.empty()) throw ArchiveError(problem);
    if (access != ArchiveAccess::Record && !std::filesystem::is_regular_file(path)) throw ArchiveError("no archive file '" + path + "'");
    std::error_code sizeError;
    const bool createsFile = !std::filesystem::exists(path, sizeError) || std::filesystem::file_size(path, sizeError) == 0;
    if (access != ArchiveAccess::Read) {
        if (const std::string problem = unwritableArchiveProblem(path); !problem.empty()) throw ArchiveError(problem);
    }
    // A reader opens the file read-only and creates no file beside it that its owner could not use.
    const std::string name = access == ArchiveAccess::Read ? readOnlyArchiveUri(path) : path;
    const int mode = access == ArchiveAccess::Read     ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                     : access == ArchiveAccess::Record ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                                       : SQLITE_OPEN_READWRITE;
    const int opened = sqlite3_open_v2(name.c_str(), &db_->db, mode | SQLITE_OPEN_NOMUTEX, nullptr);
    if (opened != SQLITE_OK) {
        const std::string reason = db_->db ? sqlite3_errmsg(db_->db) : sqlite3_errstr(opened);
        throw ArchiveError("cannot open archive '" + path + "': " + reason);
    }
    sqlite3_extended_result_codes(db_->db, 1);
    // A reader waits for a writer's checkpoint instead of failing at once.
    sqlite3_busy_timeout(db_->db, 5000);
    // Before anything is written: a file that is no archive (another SQLite file, an empty file) is
    // refused as it is, not switched to WAL mode or given tables.
    const std::int64_t found = inspectedVersion(db_->db, path_);
    if (found == 0 && access != ArchiveAccess::Record) throw ArchiveError("'" + path_ + "' is not a stream archive (no archive tables)");
    // 64 KiB pages (a new file only; must precede WAL mode): four pieces share a page (piece_layout.h)
    // instead of each one spanning a chain of overflow pages, so reads and writes take a fraction of
    // the page operations.
    // A page cache of up to 32 MiB (SQLite's default is 2 MiB, filled as pages are read): the channels
    // of an interval share pages, so a get of 10 s x 8 channels of FLAC reads each page once, not
    // once per channel (pread calls 255 -> 42).
    if (access == ArchiveAccess::Read) db_->exec("PRAGMA cache_size=-32768;", path_);
    else {
        db_->exec("PRAGMA page_size=65536;", path_);
        switchToWal(db_->db, path_);
        db_->exec("PRAGMA synchronous=NORMAL; PRAGMA cache_size=-32768;", path_);
        boundLog();
    }
    {
        Statement pageSize(db_->db, "PRAGMA page_size", path_);
        pageSize.step();
        pieceSamples_ = f32PieceSamples(pageSize.integer(0));
        pageSize.reset();
    }
    if (access != ArchiveAccess::Record) {
        prepareStatements(found);
        return;
    }
    if (found == 1) {
        // Version 1 lacks the representation policy and the per-piece encoding: every piece was f32.
        db_->exec("BEGIN IMMEDIATE", path_);
        db_->exec("ALTER TABLE streams ADD COLUMN representation TEXT NOT NULL DEFAULT 'f32'; "
                  "ALTER TABLE segments ADD COLUMN encoding TEXT NOT NULL DEFAULT 'f32'; PRAGMA user_version=2;",
                  path_);
        db_->exec("COMMIT", path_);
    }
    if (found == 1 || found == 2) {
        // Version 2 lacks the rate the recorder received: every stream was stored at it.
        db_->exec("BEGIN IMMEDIATE", path_);
        db_->exec("ALTER TABLE streams ADD COLUMN original_rate_hz REAL NOT NULL DEFAULT 0; "
                  "UPDATE streams SET original_rate_hz = rate_hz; PRAGMA user_version=3;",
                  path_);
        db_->exec("COMMIT", path_);
    }
    if (found >= 1 && found < kTotalsVersion) {
        // Once, in one transaction: the totals are filled from the rows (a read of the whole file), and
        // from then on every writer's inserts and deletes keep them. Another recorder may have upgraded
        // the file since `found` was read.
        db_->exec("BEGIN IMMEDIATE", path_);
        try {
            if (schemaVersion(db_->db, path_) < kTotalsVersion) {
                db_->exec(kArchiveTotalsSchema, path_);
                db_->exec(kArchiveTotalsFill, path_);
                db_->exec(("PRAGMA user_version=" + std::to_string(kTotalsVersion)).c_str(), path_);
            }
            db_->exec("COMMIT", path_);
        } catch (const ArchiveError&) {
            sqlite3_exec(db_->db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }
    if (found == 0) {
        try {
            db_->exec("BEGIN IMMEDIATE", path_);
            // Under the write lock: another recorder, started at the same time, may have made the tables.
            if (schemaVersion(db_->db, path_) == 0) {
                db_->exec(kSchema, path_);
                db_->exec(kArchiveTotalsSchema, path_);
                db_->exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str(), path_);
            }
            db_->exec("COMMIT", path_);
        } catch (const ArchiveBusyError&) {
            // Another recorder holds the file: it is no longer this call's to remove.
            sqlite3_exec(db_->db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        } catch (const ArchiveError& e) {
            // A file with no tables is no archive (every later open refuses it): one this call created goes.
            if (!createsFile) throw;
            sqlite3_close_v2(db_->db);
            db_->db = nullptr;
            std::error_code ignored;
            for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path_ + suffix, ignored);
            throw ArchiveError(std::string(e.what()) + " while creating the archive's tables; the new file was removed");
        }
    }
    if (found >= 1 && found < kSchemaVersion) {
        // Version 4 lacks what produced a stream and where its sensors are: unknown for every stream so far.
        db_->exec("BEGIN IMMEDIATE", path_);
        try {
            if (schemaVersion(db_->db, path_) < kSchemaVersion) {
                db_->exec("ALTER TABLE streams ADD COLUMN geometry TEXT NOT NULL DEFAULT ''; "
                          "ALTER TABLE streams ADD COLUMN producer TEXT NOT NULL DEFAULT ''; PRAGMA user_version=5;",
                          path_);
            }
            db_->exec("COMMIT", path_);
        } catch (const ArchiveError&) {
            sqlite3_exec(db_->db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }
    prepareStatements(schemaVersion(db_->db, path_));
}

void ArchiveStore::prepareStatements(std::int64_t version) {
    // A version-3 file opened for reading keeps no totals: extent() and coverage() read its rows.
    hasTotals_ = version >= kTotalsVersion;
    version_ = version;
    db_->exec("PRAGMA temp_store=MEMORY;", path_);
    sqlite3* db = db_->db;
    if (access_ == ArchiveAccess::Record) {
        db_->insertSegment = std::make_unique<Statement>(db, "INSERT INTO segments(stream, channel, start, length, samples, encoding) VALUES (?, ?, ?, ?, ?, ?)", path_);
        db_->insertItem = std::make_unique<Statement>(db, "INSERT INTO events(stream, start, length, item) VALUES (?, ?, ?, ?)", path_);
    }
    db_->findStream = std::make_unique<Statement>(db, ("SELECT " + streamColumns(version) + " FROM streams WHERE name = ?").c_str(), path_);
    db_->streamEnd = std::make_unique<Statement>(
        db, "SELECT start + length FROM segments WHERE stream = ? AND channel = ? ORDER BY start DESC LIMIT 1", path_);
    db_->itemsEnd = std::make_unique<Statement>(db, "SELECT max(start + max(length, 1)) FROM events WHERE stream = ?", path_);
    db_->itemsEndAfterRow = std::make_unique<Statement>(db, "SELECT max(start + max(length, 1)) FROM events WHERE stream = ? AND rowid > ?", path_);
    db_->nextStart = std::make_unique<Statement>(
        db, "SELECT start FROM segments WHERE stream = ? AND channel = ? AND start + length > ? ORDER BY start LIMIT 1", path_);
    // The last piece starting at or before l (it may reach into [l, h)), then every piece starting in (l, h).
    db_->segmentsIn = std::make_unique<Statement>(db,
                                                  (std::string("SELECT start, length, samples, ") + (version >= 2 ? "encoding" : "'f32'") +
                                                   " FROM segments WHERE stream = ?1 AND channel = ?2 AND start >= "
                                                   "coalesce((SELECT max(start) FROM segments WHERE stream = ?1 AND channel = ?2 AND start <= ?3), ?3) "
                                                   "AND start < ?4 ORDER BY start")
                                                      .c_str(),
                                                  path_);
    db_->itemsIn = std::make_unique<Statement>(
        db, "SELECT start, length, item, rowid FROM events WHERE stream = ? AND start >= ? AND start < ? AND rowid <= ? ORDER BY start, rowid", path_);
    // "start >= ?" beside the row value lets the (stream, start) index find the page's first item.
    db_->itemPage = std::make_unique<Statement>(
        db, "SELECT start, length, item, rowid FROM events WHERE stream = ? AND start >= ?2 AND (start, rowid) > (?2, ?3) AND start < ?4 ORDER BY start, rowid LIMIT ?5",
        path_);
}

void ArchiveStore::boundLog() {
    // SQLite's default checkpoints at 1000 pages, 64 MiB of 64 KiB pages: a small disk filled with
    // log before any retention could help, and a run ending then left its data in X-wal alone.
    Statement pageSize(db_->db, "PRAGMA page_size", path_);
    pageSize.step();
    const std::int64_t pages = std::max<std::int64_t>(1, kArchiveLogBytes / std::max<std::int64_t>(1, pageSize.integer(0)));
    pageSize.reset();
    db_->exec(("PRAGMA wal_autocheckpoint=" + std::to_string(pages) + "; PRAGMA journal_size_limit=" + std::to_string(kArchiveLogBytes) + ";").c_str(),
              path_);
}

std::optional<std::string> ArchiveStore::foldLog() {
    const int result = sqlite3_wal_checkpoint_v2(db_->db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    const int primary = sqlite3_extended_errcode(db_->db) & 0xff;
    if (result == SQLITE_OK || (primary != SQLITE_FULL && primary != SQLITE_IOERR)) return std::nullopt;
    return failureText(db_->db, result);
}

ArchiveDiskUse archiveDiskUse(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    ArchiveDiskUse use;
    const std::uintmax_t file = fs::file_size(path, error);
    use.fileBytes = error ? 0 : static_cast<std::int64_t>(file);
    const std::uintmax_t log = fs::file_size(path + "-wal", error);
    use.logBytes = error ? 0 : static_cast<std::int64_t>(log);
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    const fs::space_info space = fs::space(folder, error);
    if (!error) use.freeBytes = static_cast<std::int64_t>(space.available);
    return use;
}

ArchiveStore::~ArchiveStore() {
    try {
        commit();
    } catch (const ArchiveError&) {
        // Nothing to report to from a destructor: the uncommitted rest is lost, the file stays consistent.
    }
}

namespace {

/// The stream the current row of `query` (findStream's columns) describes.
ArchivedStreamInfo streamFromRow(const Statement& query) {
    ArchivedStreamInfo info;
    info.name = query.text(1);
    info.kind = query.text(2) == "signal" ? ArchivedStreamInfo::Kind::Signal : ArchivedStreamInfo::Kind::Items;
    info.rateHz = query.real(3);
    info.zeroTimeNs = query.integer(4);
    info.clock = query.text(5);
    info.channels = static_cast<int>(query.integer(6));
    info.sampleType = query.text(7);
    info.units = query.text(8);
    info.graph = query.text(9);
    info.node = query.text(10);
    info.representation = query.text(11);
    info.originalRateHz = query.real(12);
    info.geometry = query.text(13);
    info.producer = query.text(14);
    return info;
}

}  // namespace

std::optional<std::string> ArchiveStore::differences(const ArchivedStreamInfo& stored, const ArchivedStreamInfo& info) const {
    if (stored.kind == info.kind && stored.rateHz == info.rateHz && stored.zeroTimeNs == info.zeroTimeNs && stored.clock == info.clock &&
        stored.channels == info.channels && stored.sampleType == info.sampleType && stored.originalRate() == info.originalRate()) {
        return std::nullopt;
    }
    return "archive '" + path_ + "' already holds a stream '" + info.name + "' (" + kindName(stored.kind) + ", " + stored.timebase().describe() +
           ", " + std::to_string(stored.channels) + " channel(s), " + stored.sampleType + originalRateText(stored) +
           ") that differs from the one to record (" + kindName(info.kind) + ", " + info.timebase().describe() + ", " +
           std::to_string(info.channels) + " channel(s), " + info.sampleType + originalRateText(info) +
           "): record it under another stream name or into another file";
}

std::optional<std::string> ArchiveStore::conflictWith(const ArchivedStreamInfo& info) {
    const std::optional<ArchivedStreamInfo> stored = stream(info.name);
    return stored ? differences(*stored, info) : std::nullopt;
}

void ArchiveStore::requireRecordAccess() const {
    if (access_ != ArchiveAccess::Record) throw ArchiveError("archive '" + path_ + "' was opened to read, not to record into");
}

std::int64_t ArchiveStore::openStream(const ArchivedStreamInfo& info) {
    requireRecordAccess();
    if (info.name.empty()) throw ArchiveError("archive '" + path_ + "': a stream needs a name");
    if (!(info.rateHz > 0)) throw ArchiveError("archive '" + path_ + "': stream '" + info.name + "' needs a sample rate > 0");
    // Under the write lock: two recorders opening one new stream at once (two processes started
    // together) create it once, the second finding the first's (else its insert broke the unique name).
    const bool ownTransaction = !inTransaction_;
    beginWrite();
    try {
        const std::int64_t id = findOrCreateStream(info);
        if (ownTransaction) commit();
        return id;
    } catch (const ArchiveError&) {
        if (ownTransaction) rollback();
        throw;
    }
}

std::int64_t ArchiveStore::findOrCreateStream(const ArchivedStreamInfo& info) {
    Statement& find = *db_->findStream;
    find.bind(1, info.name);
    if (find.step()) {
        const std::int64_t id = find.integer(0);
        const ArchivedStreamInfo stored = streamFromRow(find);
        find.reset();
        if (std::optional<std::string> why = differences(stored, info)) throw ArchiveError(*why);
        flacStreams_[id] = info.representation == "flac";
        return id;
    }
    Statement insert(db_->db,
                     "INSERT INTO streams(name, kind, rate_hz, zero_time_ns, clock, channels, sample_type, units, graph, node, representation, original_rate_hz, "
                     "geometry, producer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     path_);
    insert.bind(1, info.name).bind(2, kindName(info.kind)).bind(3, info.rateHz).bind(4, std::int64_t{info.zeroTimeNs}).bind(5, info.clock);
    insert.bind(6, std::int64_t{info.channels}).bind(7, info.sampleType).bind(8, info.units).bind(9, info.graph).bind(10, info.node).bind(11, info.representation);
    insert.bind(12, info.originalRate()).bind(13, info.geometry).bind(14, info.producer);
    insert.run();
    const std::int64_t id = sqlite3_last_insert_rowid(db_->db);
    flacStreams_[id] = info.representation == "flac";
    return id;
}

std::vector<ArchivedStreamInfo> ArchiveStore::streams() {
    Statement all(db_->db, ("SELECT " + streamColumns(version_) + " FROM streams ORDER BY name").c_str(), path_);
    std::vector<ArchivedStreamInfo> found;
    while (all.step()) found.push_back(streamFromRow(all));
    return found;
}

std::optional<ArchivedStreamInfo> ArchiveStore::stream(const std::string& name) {
    Statement& find = *db_->findStream;
    find.bind(1, name);
    if (!find.step()) return std::nullopt;
    ArchivedStreamInfo info = streamFromRow(find);
    find.reset();
    return info;
}

ArchivedStreamInfo ArchiveStore::requireStream(const std::string& name) {
    std::optional<ArchivedStreamInfo> info = stream(name);
    if (!info) throw ArchiveError("archive '" + path_ + "' holds no stream '" + name + "'");
    return *info;
}

std::int64_t ArchiveStore::streamId(const std::string& name) {
    Statement& find = *db_->findStream;
    find.bind(1, name);
    if (!find.step()) throw ArchiveError("archive '" + path_ + "' holds no stream '" + name + "'");
    const std::int64_t id = find.integer(0);
    find.reset();
    return id;
}

std::size_t ArchiveStore::appendSamples(std::int64_t streamId, int channel, std::int64_t start, std::span<const float> samples) {
    requireRecordAccess();
    beginWrite();
    Statement& insert = *db_->insertSegment;
    const bool compresses = flacStreams_[streamId];
    std::size_t stored = 0;
    std::size_t at = 0;
    do {  // an empty append stays one row of length 0, as before pieces were cut
        const std::span<const float> piece = samples.subspan(at, std::min(samples.size() - at, static_cast<std::size_t>(pieceSamples_)));
        insert.bind(1, streamId).bind(2, std::int64_t{channel}).bind(3, start + static_cast<std::int64_t>(at)).bind(4, static_cast<std::int64_t>(piece.size()));
        const auto flac = compresses ? encodeFlacPiece(piece) : std::nullopt;
        if (flac) insert.bindBlob(5, flac->second.data(), flac->second.size()).bind(6, std::string(pieceEncodingName(flac->first)));
        else insert.bindBlob(5, piece.data(), piece.size_bytes()).bind(6, std::string("f32"));
        insert.run();
        stored += flac ? flac->second.size() : piece.size_bytes();
        at += piece.size();
    } while (at < samples.size());
    return stored;
}

std::int64_t ArchiveStore::appendItem(std::int64_t streamId, std::int64_t start, std::int64_t length, const std::string& json) {
    requireRecordAccess();
    beginWrite();
    Statement& insert = *db_->insertItem;
    insert.bind(1, streamId).bind(2, start).bind(3, length).bind(4, json);
    insert.run();
    return sqlite3_last_insert_rowid(db_->db);
}

std::int64_t ArchiveStore::lastItemRow() {
    Statement query(db_->db, "SELECT max(rowid) FROM events", path_);
    query.step();
    const std::int64_t row = query.isNull(0) ? 0 : query.integer(0);
    query.reset();
    return row;
}

std::optional<std::int64_t> ArchiveStore::itemsEndAfterRow(std::int64_t streamId, std::int64_t afterRow) {
    Statement& query = *db_->itemsEndAfterRow;
    query.bind(1, streamId).bind(2, afterRow);
    query.step();
    std::optional<std::int64_t> end;
    if (!query.isNull(0)) end = query.integer(0);
    query.reset();
    return end;
}

void ArchiveStore::beginWrite() {
    if (inTransaction_) return;
    db_->exec("BEGIN IMMEDIATE", path_);
    inTransaction_ = true;
}

void ArchiveStore::commit() {
    if (!inTransaction_) return;
    inTransaction_ = false;
    try {
        db_->exec("COMMIT", path_);
    } catch (const ArchiveError&) {
        // A COMMIT that failed busy leaves the transaction open: the caller may roll it back.
        inTransaction_ = sqlite3_get_autocommit(db_->db) == 0;
        throw;
    }
}

void ArchiveStore::rollback() {
    if (sqlite3_get_autocommit(db_->db) == 0) sqlite3_exec(db_->db, "ROLLBACK", nullptr, nullptr, nullptr);
    inTransaction_ = false;
}

void ArchiveStore::setLockWaitMs(int milliseconds) { sqlite3_busy_timeout(db_->db, milliseconds); }

std::optional<std::int64_t> ArchiveStore::storedEnd(const std::string& name, int channel) {
    const ArchivedStreamInfo info = requireStream(name);
    const std::int64_t id = streamId(name);
    Statement& query = info.kind == ArchivedStreamInfo::Kind::Signal ? *db_->streamEnd : *db_->itemsEnd;
    query.bind(1, id);
    if (info.kind == ArchivedStreamInfo::Kind::Signal) query.bind(2, std::int64_t{channel});
    if (!query.step()) return std::nullopt;
    std::optional<std::int64_t> end;
    if (!query.isNull(0)) end = query.integer(0);
    query.reset();
    return end;
}

std::optional<std::int64_t> ArchiveStore::nextStoredStart(const std::string& name, int channel, std::int64_t from) {
    Statement& query = *db_->nextStart;
    query.bind(1, streamId(name)).bind(2, std::int64_t{channel}).bind(3, from);
    if (!query.step()) return std::nullopt;
    const std::int64_t start = query.integer(0);
    query.reset();
    return std::max(start, from);
}

std::vector<ArchivedPiece> ArchiveStore::get(const std::string& name, int channel, std::int64_t l, std::int64_t h) {
    const ArchivedStreamInfo info = requireStream(name);
    if (info.kind != ArchivedStreamInfo::Kind::Signal) throw ArchiveError("archive '" + path_ + "': stream '" + name + "' holds items, not samples");
    if (channel < 0 || channel >= info.channels) {
        throw ArchiveError("archive '" + path_ + "': stream '" + name + "' has " + std::to_string(info.channels) + " channel(s), no channel " +
                           std::to_string(channel));
    }
    const Timebase* timebase = &info.timebase();
    std::vector<ArchivedPiece> pieces;
    std::int64_t covered = l;  // everything before this is in `pieces`
    flac_->begin(h - l);
    // A get that throws closes the batch before `pieces` (where the helper may be writing) goes.
    struct AbandonUnlessFinished {
        FlacBatch& batch;
        bool finished = false;
        ~AbandonUnlessFinished() {
            if (!finished) batch.abandon();
        }
    } batchGuard{*flac_};
    Statement& query = *db_->segmentsIn;
    query.bind(1, streamId(name)).bind(2, std::int64_t{channel}).bind(3, l).bind(4, h);
    while (query.step()) {
        const std::int64_t start = query.integer(0);
        const std::int64_t length = query.integer(1);
        const std::int64_t from = std::max(start, covered);
        const std::int64_t to = std::min(start + length, h);
        if (from >= to) continue;
        const std::span<const std::byte> bytes = query.blob(2);
        const std::optional<PieceEncoding> encoding = pieceEncodingNamed(query.text(3));
        const auto broken = [&](const std::string& why) {
            query.reset();
            return ArchiveError("archive '" + path_ + "': stream '" + name + "' channel " + std::to_string(channel) + ": the piece at sample " +
                                std::to_string(start) + " " + why);
        };
        if (!encoding) throw broken("has an unknown encoding");
        if (from > covered) pieces.push_back({covered, from - covered, {}});
        SigSeg<float> samples = SigSeg<float>::allocate(to - from, from, timebase);
        if (*encoding == PieceEncoding::Float32) {
            if (bytes.size() != static_cast<std::size_t>(length) * sizeof(float)) {
                throw broken("holds " + std::to_string(bytes.size()) + " bytes for " + std::to_string(length) + " samples");
            }
            std::memcpy(samples.writable().data(), bytes.data() + (from - start) * sizeof(float), static_cast<std::size_t>(to - from) * sizeof(float));
            pieces.push_back({from, to - from, std::move(samples)});
        } else {
            // In `pieces` first: the samples then live as long as the batch guard covers them.
            pieces.push_back({from, to - from, std::move(samples)});
            flac_->add(bytes, length, from - start, pieces.back().samples.writable(), start);  // decoded now, or by the helper meanwhile
        }
        covered = to;
    }
    const std::optional<FlacBatch::Broken> failed = flac_->finish();
    batchGuard.finished = true;
    if (failed) {
        throw ArchiveError("archive '" + path_ + "': stream '" + name + "' channel " + std::to_string(channel) + ": the piece at sample " +
                           std::to_string(failed->tag) + " does not decode as FLAC of " + std::to_string(failed->length) + " samples");
    }
    if (covered < h) pieces.push_back({covered, h - covered, {}});
    return pieces;
}

std::vector<ArchivedItem> ArchiveStore::getItems(const std::string& name, std::int64_t l, std::int64_t h, std::int64_t maxRow) {
    Statement& query = *db_->itemsIn;
    query.bind(1, streamId(name)).bind(2, l).bind(3, h).bind(4, maxRow);
    std::vector<ArchivedItem> items;
    while (query.step()) items.push_back({query.integer(0), query.integer(1), query.text(2), query.integer(3)});
    return items;
}

std::vector<ArchivedItem> ArchiveStore::getItemPage(const std::string& name, std::int64_t afterStart, std::int64_t afterRow, std::int64_t h, std::int64_t limit) {
    Statement& query = *db_->itemPage;
    query.bind(1, streamId(name)).bind(2, afterStart).bind(3, afterRow).bind(4, h).bind(5, limit);
    std::vector<ArchivedItem> items;
    while (query.step()) items.push_back({query.integer(0), query.integer(1), query.text(2), query.integer(3)});
    return items;
}

}  // namespace isochron

namespace isochron {

void ArchiveStore::interrupt() {
    interrupted_ = true;
    sqlite3_interrupt(db_->db);
}

std::optional<std::string> ArchiveStore::damage() {
    // A damaged page is found only when read: the streams' totals and stretches may all read fine
    // while get, export and replay of the samples on it fail.
    const auto interruptedError = [this] { return ArchiveInterruptedError("reading every page of '" + path_ + "' for damage was interrupted before its end"); };
    if (interrupted_) throw interruptedError();
    sqlite3_stmt* check = nullptr;
    // sqlite3_interrupt stops the check while it runs, but SQLite forgets an interrupt that came when
    // no statement ran (before the first step): the flag, asked every few pages, covers that one.
    sqlite3_progress_handler(
        db_->db, 100, [](void* interrupted) { return static_cast<std::atomic<bool>*>(interrupted)->load() ? 1 : 0; }, &interrupted_);
    int result = sqlite3_prepare_v2(db_->db, "PRAGMA quick_check(8)", -1, &check, nullptr);
    std::string found;
    while (result == SQLITE_OK || result == SQLITE_ROW) {
        result = sqlite3_step(check);
        if (result != SQLITE_ROW) break;
        const auto* chars = reinterpret_cast<const char*>(sqlite3_column_text(check, 0));
        // One row may hold several lines: the report's heading and the first problems found under it.
        std::istringstream row(chars ? chars : "");
        for (std::string line; std::getline(row, line);) {
            // "ok" for a sound file; the report's heading says nothing; SQLite 3.40 reports NULL in the
            // key of every WITHOUT ROWID table (stretches) of a sound file.
            if (line == "ok" || line.starts_with("*** in database ") || line.starts_with("NULL value in ")) continue;
            if (found.empty()) found = line;
        }
    }
    sqlite3_progress_handler(db_->db, 0, nullptr, nullptr);
    if (result != SQLITE_DONE && interrupted_) {  // (a check that reached its end says what it found)
        sqlite3_finalize(check);
        throw interruptedError();
    }
    if (result != SQLITE_DONE) {  // the check itself stopped, on the damage or for another reason
        const bool corrupt = (sqlite3_extended_errcode(db_->db) & 0xff) == SQLITE_CORRUPT;
        const std::string message = archiveFailureText(db_->db, result, path_, "reading every page failed: ");
        sqlite3_finalize(check);
        if (corrupt) return message;
        throw ArchiveError(message);
    }
    sqlite3_finalize(check);
    if (found.empty()) return std::nullopt;
    return damagedText(path_, found);
}

std::optional<ArchivedExtent> ArchiveStore::extent(const std::string& name) {
    const ArchivedStreamInfo info = requireStream(name);
    const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
    const char* sql = hasTotals_ ? "SELECT min(start), max(stop), sum(pieces), sum(samples), sum(bytes) FROM channel_totals WHERE stream = ?"
                      : signal   ? "SELECT min(start), max(start + length), count(*), sum(length), sum(length(samples)) FROM segments WHERE stream = ?"
                                 : "SELECT min(start), max(start + length), count(*), 0, sum(length(CAST(item AS BLOB))) FROM events WHERE stream = ?";
    Statement query(db_->db, sql, path_);
    query.bind(1, streamId(name));
    query.step();
    if (query.isNull(2) || query.integer(2) == 0) {
        query.reset();
        return std::nullopt;
    }
    ArchivedExtent extent{query.integer(0), query.integer(1), query.integer(2), query.integer(3), query.integer(4)};
    query.reset();
    return extent;
}

std::vector<std::pair<std::int64_t, std::int64_t>> ArchiveStore::coverage(const std::string& name, int channel) {
    const ArchivedStreamInfo info = requireStream(name);
    const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
    std::vector<std::pair<std::int64_t, std::int64_t>> stretches;
    if (signal && hasTotals_) {
        Statement query(db_->db, "SELECT start, stop FROM stretches WHERE stream = ? AND channel = ? ORDER BY stop", path_);
        query.bind(1, streamId(name)).bind(2, std::int64_t{channel});
        while (query.step()) stretches.emplace_back(query.integer(0), query.integer(1));
        return stretches;
    }
    Statement query(db_->db,
                    signal ? "SELECT start, length FROM segments WHERE stream = ? AND channel = ? AND length > 0 ORDER BY start"
                           : "SELECT start, length FROM events WHERE stream = ? AND ? = 0 ORDER BY start",
                    path_);
    query.bind(1, streamId(name)).bind(2, std::int64_t{channel});
    while (query.step()) {
        const std::int64_t start = query.integer(0);
        const std::int64_t end = start + std::max<std::int64_t>(query.integer(1), signal ? 0 : 1);
        if (!stretches.empty() && start <= stretches.back().second) stretches.back().second = std::max(stretches.back().second, end);
        else stretches.emplace_back(start, end);
    }
    return stretches;
}

ArchiveStore::Pruned ArchiveStore::prune(const std::string& name, std::int64_t before) {
    const ArchivedStreamInfo info = requireStream(name);
    const std::int64_t id = streamId(name);
    const bool ownTransaction = !inTransaction_;
    if (ownTransaction) db_->exec("BEGIN IMMEDIATE", path_);
    Pruned pruned;
    // Per channel, so that the index (stream, channel, start) bounds the rows looked at.
    const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
    Statement measure(db_->db,
                      signal ? "SELECT count(*), total(length(samples)) FROM segments WHERE stream = ?1 AND channel = ?2 AND start < ?3 AND start + length <= ?3"
                             : "SELECT count(*), total(length(CAST(item AS BLOB))) FROM events WHERE stream = ?1 AND ?2 = 0 AND start < ?3 AND start + length <= ?3",
                      path_);
    // At most kPruneRowsPerStatement rows per statement: the statement journal holds a copy of every
    // page a statement changes until it ends, so pruning an hour holds a few MiB, not the hour.
    Statement drop(db_->db,
                   signal ? "DELETE FROM segments WHERE rowid IN (SELECT rowid FROM segments WHERE stream = ?1 AND channel = ?2 AND start < ?3 "
                            "AND start + length <= ?3 LIMIT ?4)"
                          : "DELETE FROM events WHERE rowid IN (SELECT rowid FROM events WHERE stream = ?1 AND ?2 = 0 AND start < ?3 AND start + length <= ?3 "
                            "LIMIT ?4)",
                   path_);
    for (int channel = 0; channel < (signal ? info.channels : 1); ++channel) {
        measure.bind(1, id).bind(2, std::int64_t{channel}).bind(3, before);
        measure.step();
        pruned.rows += measure.integer(0);
        pruned.bytes += static_cast<std::int64_t>(measure.real(1));
        measure.reset();
        do {
            drop.bind(1, id).bind(2, std::int64_t{channel}).bind(3, before).bind(4, kPruneRowsPerStatement);
            drop.run();
        } while (sqlite3_changes64(db_->db) == kPruneRowsPerStatement);
    }
    if (ownTransaction) db_->exec("COMMIT", path_);
    return pruned;
}

std::optional<std::int64_t> ArchiveStore::storedStart(const std::string& name) {
    const ArchivedStreamInfo info = requireStream(name);
    const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
    Statement query(db_->db,
                    signal ? "SELECT start FROM segments WHERE stream = ?1 AND channel = ?2 ORDER BY start LIMIT 1"
                           : "SELECT start FROM events WHERE stream = ?1 AND ?2 = 0 ORDER BY start LIMIT 1",
                    path_);
    std::optional<std::int64_t> earliest;
    const std::int64_t id = streamId(name);
    for (int channel = 0; channel < (signal ? info.channels : 1); ++channel) {
        query.bind(1, id).bind(2, std::int64_t{channel});
        if (query.step()) {
            earliest = std::min(earliest.value_or(query.integer(0)), query.integer(0));
            query.reset();
        }
    }
    return earliest;
}

}  // namespace isochron
