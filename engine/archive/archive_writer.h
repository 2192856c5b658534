// ArchiveWriter: records one stream into an ArchiveStore on a thread of its own, so that inserts,
// commits and WAL checkpoints (which wait on the disk) never run on the engine thread.
//
// The engine thread hands over samples (a SigSeg, shared, not copied) and items through a queue
// bounded in bytes; once `commitNs` of data (by sample index) or of wall time has come since the last
// commit, the writer thread inserts it all and commits in one short transaction, then reports the
// committed interval to an optional trigger. The file's write lock is held only for that transaction,
// never while waiting for data, so several writers (sinks of one graph, other processes) share a file;
// a commit that finds another connection holding the lock for longer than `lockWaitMs` is put off and
// retried after `commitNs`, nothing lost (at a flush or the end, it stops the recording: reported).
// A full queue either holds the pushing thread until the writer has made room (back-pressure, for a
// run that follows no wall clock: an unpaced import loses nothing by waiting) or stops the recording
// (Options::waitWhenBehind decides, asked at that moment). Recording stops for good, with a message
// naming the file, when the queue overflows so (the message gives the rates in and out) or the store
// fails (a full disk, an unwritable file): what was committed before stays, nothing after it is
// written, and push() refuses from then on. Otherwise the engine thread never waits for the disk,
// except in flush() (the end of a run).
//
// Two recorders of one stream (two processes, two sinks): stored pieces of a channel never overlap,
// and each item is stored once. Each commit takes the file's write lock first (BEGIN IMMEDIATE), then
// reads what the stream holds, and inside that one transaction drops what another recorder stored
// first: the part of each sample piece before the channel's stored end, and every item starting
// before the furthest end of the items stored by others (other recorders, earlier recordings; each
// commit looks at the rows added since the previous one). The same items recorded twice are so stored
// once, and this writer's own late items stay while no one else stored past them.
// storedElsewhere() counts what was dropped so; the live window counts it as committed.
//
// Pieces: the store's unit is a piece of ArchiveStore::pieceSamples() samples, sized so that pages
// hold whole pieces (engine/archive/piece_layout.h), not the blocks the recorder receives. Each
// commit joins a channel's contiguous writes and stores them as whole pieces; the partial piece at the
// end of each channel stays queued for the next commit while more of the channel is queued behind it
// or its samples are younger than half of `commitNs` (so a crash still loses at most about 1.5 x
// commitNs of data). A flush, the end, a push waiting for room, a gap and older samples store the
// partial piece as it is.
//
// Live window: every segment and item pushed also goes into a LiveWindow (engine/archive/live_window.h)
// that readers share (liveWindow()), holding the newest `liveSamples` per channel plus whatever is not
// committed yet, so `get` reaches past what the archive holds (engine/archive/stream_reader.h).
//
// Retention: after each commit the writer drops the stream's oldest pieces (whole pieces, oldest
// first) beyond the newest `keepSamples` or beyond `keepBytes` of payload as stored (FLAC's bytes
// when compressed), whatever the recording that stored them (this run or an earlier one).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "engine/archive/archive_store.h"
#include "engine/archive/live_window.h"

namespace isochron {

/// Samples [start, end) of a stream, all channels, became durable in the archive. [value type]
struct CommittedInterval {
    std::string path;    ///< the archive file, as the recorder names it
    std::string stream;
    std::int64_t start = 0;  ///< sample index of the earliest sample committed, any channel
    std::int64_t end = 0;    ///< one past the latest sample committed, any channel
};

/// Called on the writer thread after each commit. Must not block for long (the queue fills meanwhile).
using CommitTrigger = std::function<void(const CommittedInterval&)>;

/// One stream recorded by a thread of its own. [push/flush/problem: one engine thread; the trigger
/// runs on the writer thread]
class ArchiveWriter {
public:
    struct Options {
        std::size_t queueBytes = 64u << 20;  ///< samples and items waiting for the disk, at most; > 0
        TimeNs commitNs = 500'000'000;       ///< data (or wall time) per transaction: the most a crash loses; > 0
        int lockWaitMs = 5000;               ///< ms one commit waits for another writer's lock before it is retried later; >= 0
        std::int64_t keepSamples = 0;        ///< retention: keep the newest this many samples of the stream; 0 = all
        std::int64_t keepBytes = 0;          ///< retention: keep at most this many payload bytes of the stream; 0 = no limit
        std::int64_t liveSamples = 0;        ///< live window: keep the newest this many samples per channel in memory (plus the uncommitted); >= 0
        CommitTrigger trigger;               ///< optional; called after each commit
        /// Asked on the pushing thread when a push finds the queue full: true = wait until the writer
        /// has made room (back-pressure), false (or none) = stop recording.
        std::function<bool()> waitWhenBehind;
        /// Asked on the pushing thread every few ms while it waits: true ends the wait (a stop of the
        /// run), the write then queued past the bound so nothing is lost.
        std::function<bool()> stopWaiting;
        /// What to do about a full queue, in the recorder's terms (its settings), ending the message
        /// that stops the recording; may be empty.
        std::string behindAdvice;
    };

    /// What this writer dropped because another recorder of the stream (another process or sink)
    /// had stored it first. [value type]
    struct StoredElsewhere {
        std::int64_t samples = 0;     ///< samples dropped, all channels together
        std::int64_t items = 0;       ///< items dropped
        std::int64_t firstStart = 0;  ///< the first interval dropped: [firstStart, firstEnd), sample indices
        std::int64_t firstEnd = 0;
    };

    /// Takes over `store` (opened on the calling thread) and starts the writer thread; `info`
    /// describes the stream, opened (created if new) in the store on the writer thread. [may allocate]
    ArchiveWriter(std::unique_ptr<ArchiveStore> store, ArchivedStreamInfo info, Options options);
    /// Commits what the queue holds (unless recording stopped) and ends the thread. [blocks on the disk]
    ~ArchiveWriter();
    /// Commits what the queue holds (unless recording stopped), ends the thread and folds the
    /// write-ahead log into the file; returns a warning naming the file and what to do when the disk
    /// refused that (the recording is then whole only together with its X-wal), else nothing. Call
    /// once, at the end of a recording, and push nothing after it. [blocks on the disk]
    std::optional<std::string> close();
    ArchiveWriter(const ArchiveWriter&) = delete;
    ArchiveWriter& operator=(const ArchiveWriter&) = delete;

    /// Queue samples of `channel` from sample `start`. False once recording stopped (see problem()),
    /// including when this would overfill the queue and waitWhenBehind says not to wait. [engine
    /// thread] [no disk access; blocks while the queue is full and waitWhenBehind says to wait]
    bool pushSamples(int channel, std::int64_t start, SigSeg<float> samples);
    /// Queue one scalar or event item as JSON text. False once recording stopped. [engine thread] [as pushSamples]
    bool pushItem(std::int64_t start, std::int64_t length, std::string json);
    /// Wait until everything queued is committed (or recording stopped). [blocks on the disk]
    void flush();
    /// Why recording stopped (names the file), or nothing while it goes on. [any thread]
    std::optional<std::string> problem() const;
    /// Commits put off because another connection held the file's write lock past lockWaitMs (each
    /// retried later with nothing lost). [any thread]
    std::uint64_t lockWaits() const;
    /// Bytes queued and not yet committed. [any thread] [no allocation]
    std::size_t pendingBytes() const;
    /// Samples [first, through) are committed on every channel: `first` is where this writer's first
    /// commit began, `through` the least committed end over the channels (items: the furthest item
    /// end, an item of length 0 counting 1 sample); nothing before a commit. [any thread]
    struct CommittedSpan {
        std::int64_t first = 0;
        std::int64_t through = 0;
    };
    std::optional<CommittedSpan> committedSpan() const;
    /// What was dropped as stored first by another recorder of the stream, or nothing. [any thread]
    std::optional<StoredElsewhere> storedElsewhere() const;
    /// The stream's recent and uncommitted data, for readers (outlives the writer if they hold it). [any thread]
    const std::shared_ptr<const LiveWindow>& liveWindow() const { return liveView_; }

private:
    /// One queued write: samples of a channel, or an item's JSON (channel < 0).
    struct Write {
        int channel = 0;
        std::int64_t start = 0;
        std::int64_t length = 0;
        SigSeg<float> samples;
        std::string json;
        std::size_t bytes = 0;
        std::chrono::steady_clock::time_point pushedAt;
        /// Completes the pushed write: false for the head of a write cut at a piece boundary, whose
        /// tail waits for the next commit (flush() counts pushed writes).
        bool completesPush = true;
    };

    bool push(Write&& write);
    /// Asks the thread to end after committing what is queued, and waits for it.
    void endThread();
    static double megabytes(std::int64_t bytes);
    /// The message stopping a recording whose queue holds `pendingBytes` when a write arrives. [mutex_ held]
    std::string fellBehindMessage() const;
    /// archiveDiskFullAdvice() for this stream, with what the archive's streams hold now. [writer thread]
    std::string diskFullAdvice() const;
    void run();
    /// Moves the partial piece at the end of each channel's writes among the first `count` of `batch`
    /// (cutting the write it starts in) behind them, unless no later write of the channel follows in
    /// `batch` and its samples were pushed `holdFor` or longer before `now`; returns how many writes
    /// remain to commit. With `storeSomething`, holds nothing back rather than everything (a commit
    /// that must make progress). [writer thread]
    std::size_t holdBackPartialPieces(std::deque<Write>& batch, std::size_t count, std::chrono::steady_clock::time_point now,
                                      std::chrono::nanoseconds holdFor, bool storeSomething) const;
    /// Stops recording for good: problem() says `why`, "recording stopped" and `advice` (what to do) when given.
    void stop(std::string why, std::string_view advice = {});
    void enforceRetention(std::int64_t committedEnd);

    std::unique_ptr<ArchiveStore> store_;
    ArchivedStreamInfo info_;
    Options options_;
    std::int64_t streamId_ = -1;
    std::int64_t pieceSamples_ = 1;  // the store's piece length (run())
    std::int64_t storedBytes_ = 0;  // the stream's payload in the archive (retention by bytes)
    std::int64_t retainedFrom_ = std::numeric_limits<std::int64_t>::min();  // pruned before this (retention by samples)
    std::shared_ptr<LiveWindow> live_;
    std::shared_ptr<const LiveWindow> liveView_;  // the same window, for readers

    mutable std::mutex mutex_;
    std::condition_variable wake_;      // the writer thread: data queued, a flush or the end asked
    std::condition_variable committed_;  // flush(): the queue was committed or recording stopped
    std::deque<Write> queue_;
    std::size_t pendingBytes_ = 0;       // queued plus taken by the writer and not yet committed
    std::uint64_t pushed_ = 0;           // writes queued since the start
    std::uint64_t committedWrites_ = 0;  // writes committed since the start
    std::uint64_t lockWaits_ = 0;        // commits put off for another writer's lock
    std::chrono::steady_clock::time_point firstPush_;  // the rates in and out are over the time since
    std::uint64_t pushedBytes_ = 0;      // queued since the start
    std::uint64_t committedBytes_ = 0;   // committed (as queued) since the start
    std::optional<StoredElsewhere> storedElsewhere_;
    bool flushAsked_ = false;
    bool roomAsked_ = false;             // a push waits for room in the queue
    bool ending_ = false;
    std::optional<std::string> problem_;
    std::optional<CommittedSpan> committedSpan_;
    std::thread thread_;
};

/// What a recorder stopped by a full disk says to free or keep less of: the sizes of the archive file
/// at `path`, its log and the free space (`use`), and the largest keep_gb of the stream holding
/// `streamBytes` (of `archivedBytes` all streams of the archive hold) that fits the disk, the other
/// streams kept as they are. [any thread]
std::string archiveDiskFullAdvice(const std::string& path, const ArchiveDiskUse& use, std::int64_t streamBytes, std::int64_t archivedBytes);

}  // namespace isochron
