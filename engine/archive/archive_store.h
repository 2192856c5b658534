// ArchiveStore: recorded streams in one SQLite file (WAL mode), so a stream seen live can be read
// back and replayed later (issue 13, "persistent temporal streams").
//
// Layout (docs/archive.md): table `streams` holds each stream's metadata (name, kind, timebase,
// channel count, sample type, units, the graph and node that produced it, its representation);
// table `segments` holds signal samples, one row per stored piece of one channel (start index,
// length, samples as a BLOB: f32, or FLAC when the stream's representation is "flac" and the piece is
// exact at 16 or 24 bits; a "downsample" stream holds f32 at its stored, lower rate), indexed on (stream, channel, start); table `events` holds scalar and event
// items as JSON text, indexed on (stream, start). Stored pieces of a channel never overlap. Tables
// `channel_totals` and `stretches` (schema version 4, engine/archive/archive_totals.h), kept by
// triggers in the transaction of every insert and delete, say how much each stream and channel holds
// and which stretches, so extent() and coverage() read a few rows instead of every piece. New files
// use 64 KiB pages. A piece is the store's unit, not the recorder's block: appended samples are cut
// into pieces of pieceSamples() (engine/archive/piece_layout.h), and the recorder coalesces its blocks
// into whole pieces, so that pages hold whole pieces whatever the block size (about 4.03 bytes per
// f32 sample). Readers take pieces of any length, so files written with the recorder's blocks as
// pieces (before 2026-11-30) read as before.
//
// Crash safety: writes go into one open transaction that commit() ends. The recorder (ArchiveWriter,
// for io.archive_sink) commits about every half second of data, so a killed process loses at most the uncommitted rest;
// WAL with synchronous=NORMAL keeps the file consistent through a crash of the process (and of the
// machine, minus the last transactions). Readers (another ArchiveStore on the same file) see the
// committed data while a writer keeps writing.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/signal/sigseg.h"
#include "engine/time/timebase.h"

namespace isochron {

class FlacBatch;

/// What a recorded stream is and where it came from. [value type]
struct ArchivedStreamInfo {
    enum class Kind { Signal, Items };
    std::string name;
    Kind kind = Kind::Signal;
    double rateHz = 0;            ///< of the stream's timebase, > 0
    TimeNs zeroTimeNs = 0;        ///< time of sample 0 on `clock`
    std::string clock = "media";  ///< name of the timebase's clock
    int channels = 1;             ///< signal streams: channels stored; item streams: 1
    std::string sampleType = "f32";
    std::string units;            ///< free text, e.g. "Pa" or "dBFS"; empty = unknown
    std::string graph;            ///< the graph that recorded it (file or name), may be empty
    std::string node;             ///< id of the recording node in that graph
    /// What produced the recorded data: "node (operator type)" of each node feeding the recorder, in
    /// input order, ", "-separated; may be empty (unknown, or a file older than schema version 5)
    std::string producer;
    /// Where the channels' sensors are: {"mics": [[x, y, z], ...]} in metres, one per channel (an
    /// array geometry file's format); empty = not known to be an array
    std::string geometry;
    /// How pieces are stored: "f32" (as they come), "flac" (each piece exact at 16 or 24 bits as
    /// FLAC, any other kept f32: lossless either way; engine/archive/flac_piece.h), or "downsample"
    /// (resampled to rateHz from originalRateHz by the recorder, stored f32)
    std::string representation = "f32";
    /// The rate the recorder received, in Hz; 0 = rateHz (stored as received)
    double originalRateHz = 0;

    /// The rate the recorder received (rateHz unless downsampled). [any thread]
    double originalRate() const { return originalRateHz > 0 ? originalRateHz : rateHz; }

    /// The timebase the stream was recorded on. [any thread] [allocates on first use of a timebase]
    const Timebase& timebase() const { return Timebase::get(rateHz, zeroTimeNs, Clock::named(clock)); }
};

/// Where a piece of a stream was read: the archive file, or a recorder's in-memory live window.
enum class PieceOrigin { Stored, Live };

/// Samples [start, start + length) of one channel: stored samples, or a gap when `samples` is empty. [value type]
struct ArchivedPiece {
    std::int64_t start = 0;
    std::int64_t length = 0;
    SigSeg<float> samples;  ///< empty for a gap; else exactly [start, start + length) on the stream's timebase
    PieceOrigin origin = PieceOrigin::Stored;  ///< of the samples (a gap: Stored)

    bool isGap() const { return samples.empty(); }
    std::int64_t end() const { return start + length; }
};

/// A stored scalar or event item: its sample range and its JSON text (docs/archive.md). [value type]
struct ArchivedItem {
    std::int64_t start = 0;
    std::int64_t length = 0;
    std::string json;
    std::int64_t row = 0;  ///< events.rowid when read from a file (later items get larger ones), else 0
};

/// How much of a stream an archive holds. [value type]
struct ArchivedExtent {
    std::int64_t start = 0;   ///< first stored sample index (items: first start), any channel
    std::int64_t end = 0;     ///< one past the last stored sample (items: the furthest end)
    std::int64_t rows = 0;    ///< stored pieces (all channels) or items
    std::int64_t samples = 0; ///< stored samples, all channels (items: 0)
    std::int64_t bytes = 0;   ///< payload bytes (samples as stored, or JSON text)
};

/// An error opening, reading or writing an archive; the message names the file. [value type]
class ArchiveError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// An ArchiveError because another connection (this process or another) held the write lock for
/// longer than the store waits for it: nothing was written, and the same writes may be tried again. [value type]
class ArchiveBusyError : public ArchiveError {
public:
    using ArchiveError::ArchiveError;
};

/// An ArchiveError because the disk holding the archive is full: nothing of the failed write is stored. [value type]
class ArchiveDiskFullError : public ArchiveError {
public:
    using ArchiveError::ArchiveError;
};

/// An ArchiveError because ArchiveStore::interrupt() stopped a read before it reached its end. [value type]
class ArchiveInterruptedError : public ArchiveError {
public:
    using ArchiveError::ArchiveError;
};

/// How far the write-ahead log (X-wal) grows: a writer folds it into the file (a checkpoint) once it
/// holds this much, and cuts it back to this size afterwards. An archive needs about twice this on its
/// disk beyond what its streams keep (docs/archive.md, "Disk space").
inline constexpr std::int64_t kArchiveLogBytes = 4 << 20;

/// Disk space an archive takes and has: its file, its write-ahead log, the free space of the disk
/// holding them (-1 when unknown). [value type]
struct ArchiveDiskUse {
    std::int64_t fileBytes = 0;
    std::int64_t logBytes = 0;
    std::int64_t freeBytes = -1;
};

/// The disk use of the archive at `path`. [any thread] [reads the file system]
ArchiveDiskUse archiveDiskUse(const std::string& path);

/// How an ArchiveStore opens its file.
enum class ArchiveAccess {
    Record,  ///< create the file and its tables if missing; an older file gets the running totals (a read of every row, once)
    Read,    ///< the file must exist and be an archive; opened read-only, never written (archive_file_access.h), an older
             ///< schema version read as it is (a version-3 file has no totals: extent() reads every row)
    Modify,  ///< the file must exist and be an archive; opened to drop what it holds (prune), its schema version kept
};

/// Throws ArchiveError naming `path` when an io.archive_sink could not record into it, for what the
/// file is: a folder, a device, a pipe, a file in a folder that does not exist, a file that is no
/// SQLite database, another application's database (user_version 0 with tables of its own), or an
/// archive of another schema version. A missing or 0-byte file, an empty database and an archive pass.
/// Opens an existing file without writing to it, so it can run before a run starts (and under
/// --check). [setup thread] [may block on disk]
void refuseUnrecordableArchive(const std::string& path);

/// One open archive file: a writer and reader of recorded streams. [one thread at a time per object;
/// several objects, in one process or several, may use one file]
class ArchiveStore {
public:
    /// Open the archive at `path` (Record: creating it and its tables if missing). Throws ArchiveError
    /// naming the file when it cannot be opened or created, or is not an archive; a file this call
    /// created whose tables could not be written (a full disk, a file size limit) is removed, never left
    /// behind without tables. [may block on disk]
    ArchiveStore(const std::string& path, ArchiveAccess access);
    ~ArchiveStore();
    ArchiveStore(const ArchiveStore&) = delete;
    ArchiveStore& operator=(const ArchiveStore&) = delete;

    const std::string& path() const { return path_; }

    /// The stream `info.name`, created with `info` if new; an existing stream must have the same kind,
    /// timebase, channel count and sample type (else ArchiveError). Returns its id for the writers.
    std::int64_t openStream(const ArchivedStreamInfo& info);
    /// Metadata of every stream, by name.
    std::vector<ArchivedStreamInfo> streams();
    /// Metadata of the stream `name`, or nothing.
    std::optional<ArchivedStreamInfo> stream(const std::string& name);
    /// Why recording `info` into this archive is refused (a stream of that name on another timebase,
    /// channel count or sample type), or nothing. Reads only: safe while another connection writes.
    std::optional<std::string> conflictWith(const ArchivedStreamInfo& info);

    /// Store `samples` of channel `channel` starting at sample `start` (within the open transaction,
    /// which this begins if none is open), as pieces of pieceSamples() and a shorter last one. The
    /// caller keeps pieces of a channel from overlapping. Returns the bytes stored (FLAC's, when the
    /// stream's representation compresses a piece).
    std::size_t appendSamples(std::int64_t streamId, int channel, std::int64_t start, std::span<const float> samples);
    /// Samples per stored piece: whole pieces fill this file's pages (4 081 for 64 KiB pages). Appends
    /// in multiples of it leave no page part-empty. [any thread of the store's owner] [no allocation]
    std::int64_t pieceSamples() const { return pieceSamples_; }
    /// Store one scalar or event item as JSON text (within the open transaction). Returns its row
    /// id (events.rowid): later items get larger ones.
    std::int64_t appendItem(std::int64_t streamId, std::int64_t start, std::int64_t length, const std::string& json);
    /// Take the file's write lock now (BEGIN IMMEDIATE) for the transaction commit() ends, so that what
    /// this connection reads before its appends is still what the file holds when they commit: no other
    /// writer commits in between. Throws ArchiveBusyError when the lock stays taken past the lock wait.
    /// No-op inside a transaction.
    void beginWrite();
    /// Make everything appended so far durable against a crash of the process. No-op without writes.
    void commit();
    /// Drop everything appended since the last commit (after a failed append or commit). No-op without writes.
    void rollback();
    /// Fold the write-ahead log into the file now (a passive checkpoint: no waiting for other
    /// connections, whose reads keep their part of the log until they close). Returns SQLite's words
    /// when the disk refused it (full, over a file size limit): the archive is then whole only with
    /// its X-wal; else nothing. Commits nothing. [may block on disk]
    std::optional<std::string> foldLog();
    /// How long a write waits for another connection's write lock before failing with
    /// ArchiveBusyError, in milliseconds (>= 0; 5000 when not set).
    void setLockWaitMs(int milliseconds);

    /// Index one past the last stored sample of `channel` (items: past the furthest item end, an item
    /// of length 0 counting as 1 sample, so that [start, storedEnd) holds every item), or nothing when empty.
    std::optional<std::int64_t> storedEnd(const std::string& name, int channel = 0);
    /// First stored sample index >= `from` of `channel`, or nothing.
    std::optional<std::int64_t> nextStoredStart(const std::string& name, int channel, std::int64_t from);
    /// Channel `channel` of stream `name` over samples [l, h): stored pieces clipped to [l, h) in
    /// order, and every stretch not stored as a gap piece (never stitched). Throws ArchiveError for
    /// an unknown stream or channel.
    std::vector<ArchivedPiece> get(const std::string& name, int channel, std::int64_t l, std::int64_t h);
    /// Items of stream `name` whose start lies in [l, h), in start order; only rows up to
    /// `maxRow` (events.rowid; LiveWindow's bound) when given.
    std::vector<ArchivedItem> getItems(const std::string& name, std::int64_t l, std::int64_t h,
                                       std::int64_t maxRow = std::numeric_limits<std::int64_t>::max());
    /// At most `limit` (> 0) items of stream `name` that follow the item (`afterStart`, `afterRow`) in
    /// start-then-row order and start before `h`: one page of getItems(name, afterStart, h) at a time,
    /// so that a reader of a long interval holds a page, not the interval. The first page of [l, h)
    /// is (l, 0); the next one follows the last item's (start, row).
    std::vector<ArchivedItem> getItemPage(const std::string& name, std::int64_t afterStart, std::int64_t afterRow, std::int64_t h, std::int64_t limit);
    /// The largest item row id in the file (any stream), 0 when it holds no item.
    std::int64_t lastItemRow();
    /// The furthest end (an item of length 0 counting 1 sample) of the items of stream `streamId` in
    /// rows after `afterRow` (events.rowid), or nothing when there is none: what was stored since a
    /// row was seen.
    std::optional<std::int64_t> itemsEndAfterRow(std::int64_t streamId, std::int64_t afterRow);
    /// How much of stream `name` is stored, or nothing when it holds nothing: one row per channel of
    /// the running totals (a version-3 file opened for reading: a read of every row). Throws
    /// ArchiveError for an unknown stream.
    std::optional<ArchivedExtent> extent(const std::string& name);
    /// The stretches [start, end) of `channel` that are stored, adjacent pieces merged, in order: a
    /// signal's from its stored stretches (a version-3 file opened for reading, and items: from the
    /// rows, without their samples).
    std::vector<std::pair<std::int64_t, std::int64_t>> coverage(const std::string& name, int channel);
    /// What prune() dropped. [value type]
    struct Pruned {
        std::int64_t rows = 0;
        std::int64_t bytes = 0;  ///< payload, as ArchivedExtent::bytes counts it
    };
    /// Drop every stored piece or item of `name` that ends at or before sample `before` (a piece
    /// reaching past it stays whole), committed with the open transaction (or at once when none is
    /// open). Freed pages are reused by later recordings (the file does not shrink).
    Pruned prune(const std::string& name, std::int64_t before);
    /// Why the file is damaged (the message a read of its damaged part fails with), or nothing when
    /// every page reads sound. Throws ArchiveInterruptedError once interrupt() was called. [reads the whole file]
    std::optional<std::string> damage();
    /// Stop damage() where it is, or at once when it starts later: for an owner that closes while the
    /// check of a large file runs on another thread (minutes for a day of 8 channels). Lasts for the
    /// store's life. [any thread, while the store exists] [no allocation]
    void interrupt();
    /// The earliest stored sample index of `name` (any channel) or item start, or nothing when empty.
    std::optional<std::int64_t> storedStart(const std::string& name);

private:
    /// The message refusing `info` where the archive holds `stored` under that name, or nothing.
    std::optional<std::string> differences(const ArchivedStreamInfo& stored, const ArchivedStreamInfo& info) const;
    struct Connection;
    /// Prepares the statements the store reuses, for a file of schema `version`. [constructor]
    void prepareStatements(std::int64_t version);
    /// Bounds the write-ahead log of a writing connection to about kArchiveLogBytes. [constructor]
    void boundLog();
    /// Throws ArchiveError unless the store was opened to record.
    void requireRecordAccess() const;
    /// openStream's work, inside the write transaction it opened.
    std::int64_t findOrCreateStream(const ArchivedStreamInfo& info);
    ArchivedStreamInfo requireStream(const std::string& name);
    std::int64_t streamId(const std::string& name);

    std::string path_;
    ArchiveAccess access_;
    std::int64_t version_ = 0;  // the file's schema version (after a recorder's upgrade)
    std::unique_ptr<Connection> db_;
    bool inTransaction_ = false;
    std::int64_t pieceSamples_ = 1;  // f32PieceSamples of the file's page size
    bool hasTotals_ = false;  // the file keeps running totals (version 4); else extent() and coverage() read the rows
    std::map<std::int64_t, bool> flacStreams_;  // stream id -> pieces go in as FLAC when exact (openStream)
    std::unique_ptr<FlacBatch> flac_;           // the FLAC pieces of a get() and their decoders, kept from get to get
    std::atomic<bool> interrupted_{false};      // interrupt() was called
};

}  // namespace isochron
