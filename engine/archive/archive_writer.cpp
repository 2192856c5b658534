#include "engine/archive/archive_writer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

namespace isochron {

ArchiveWriter::ArchiveWriter(std::unique_ptr<ArchiveStore> store, ArchivedStreamInfo info, Options options)
    : store_(std::move(store)), info_(std::move(info)), options_(std::move(options)) {
    std::int64_t itemRows = 0;
    try {
        itemRows = store_->lastItemRow();
    } catch (const ArchiveError& e) {
        problem_ = std::string(e.what()) + "; recording stopped";
    }
    live_ = std::make_shared<LiveWindow>(info_.kind == ArchivedStreamInfo::Kind::Signal ? info_.channels : 1, options_.liveSamples, itemRows);
    liveView_ = live_;
    if (problem_) return;  // no thread: push() refuses, flush() returns at once
    thread_ = std::thread([this] { run(); });
}

ArchiveWriter::~ArchiveWriter() { endThread(); }

void ArchiveWriter::endThread() {
    {
        std::lock_guard lock(mutex_);
        ending_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

std::optional<std::string> ArchiveWriter::close() {
    endThread();
    const std::optional<std::string> refused = store_->foldLog();
    if (!refused) return std::nullopt;
    const std::string& path = store_->path();
    const ArchiveDiskUse use = archiveDiskUse(path);
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << "archive '" << path << "': its write-ahead log '" << path << "-wal' (" << megabytes(use.logBytes)
         << " MB) could not be folded into the file (SQLite: " << *refused << "), so the recording is whole only together with it: keep '" << path
         << "-wal' beside '" << path << "' (move or copy both), or free " << megabytes(std::max(use.logBytes - std::max<std::int64_t>(use.freeBytes, 0), std::int64_t{1} << 20))
         << " MB on that disk and fold it in: record into the archive again, or run sqlite3 '" << path << "' 'PRAGMA wal_checkpoint'";
    return text.str();
}

double ArchiveWriter::megabytes(std::int64_t bytes) { return static_cast<double>(bytes) / 1e6; }

std::string ArchiveWriter::diskFullAdvice() const {
    std::int64_t streamBytes = storedBytes_, archivedBytes = storedBytes_;
    try {
        // The running totals: a few rows per stream. The file still reads after the refused write.
        archivedBytes = 0;
        for (const ArchivedStreamInfo& stream : store_->streams()) {
            const std::int64_t bytes = store_->extent(stream.name).value_or(ArchivedExtent{}).bytes;
            archivedBytes += bytes;
            if (stream.name == info_.name) streamBytes = bytes;
        }
    } catch (const ArchiveError&) {
        archivedBytes = streamBytes;  // this recording's own count: the advice is then as if the stream were alone
    }
    return archiveDiskFullAdvice(store_->path(), archiveDiskUse(store_->path()), streamBytes, std::max(archivedBytes, streamBytes));
}

std::string archiveDiskFullAdvice(const std::string& path, const ArchiveDiskUse& use, std::int64_t streamBytes, std::int64_t archivedBytes) {
    const auto megabytes = [](std::int64_t bytes) { return static_cast<double>(bytes) / 1e6; };
    const std::int64_t free = std::max<std::int64_t>(use.freeBytes, 0);
    // The log folds into the file (which may grow by as much), then takes up to two checkpoints'
    // worth again before it is cut back.
    const std::int64_t needed = use.logBytes + 2 * kArchiveLogBytes - free;
    // The room the streams may fill: what the archive and its log take now plus the free space, less
    // what the log needs beyond what the streams keep (docs/archive.md, "Disk space": about 10 MB,
    // the log at its bound, the transaction crossing it, a reader holding a checkpoint back). The
    // file takes more than the streams hold (partly filled 64 KiB pages, the index): in the same
    // proportion as now. What fits this stream is that room's share left by the other streams.
    constexpr std::int64_t kRoomBeyondKept = 10'000'000;
    const double fileBytesPerStoredByte = std::max(1.0, static_cast<double>(use.fileBytes) / static_cast<double>(std::max<std::int64_t>(archivedBytes, 1)));
    const std::int64_t others = std::max<std::int64_t>(archivedBytes - streamBytes, 0);
    const auto fitting = static_cast<std::int64_t>(static_cast<double>(use.fileBytes + use.logBytes + free - kRoomBeyondKept) / fileBytesPerStoredByte) - others;
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << "the archive file is " << megabytes(use.fileBytes) << " MB, its write-ahead log '" << path << "-wal' "
         << megabytes(use.logBytes) << " MB, " << megabytes(free) << " MB free; free space on that disk (at least "
         << megabytes(std::max<std::int64_t>(needed, 1 << 20)) << " MB), or keep less of each stream (a retention: keep_hours, keep_gb; this stream holds "
         << megabytes(streamBytes) << " MB, and the archive needs about " << megabytes(2 * kArchiveLogBytes) << " MB for its log beyond what its streams keep";
    if (fitting >= 1'000'000) {
        text << std::setprecision(3) << ": on this disk keep_gb " << std::floor(megabytes(fitting)) / 1000 << " at most)";
    } else {
        text << ": this disk has no room for it beside the archive's other streams and its log; record onto a larger disk)";
    }
    return text.str();
}

bool ArchiveWriter::pushSamples(int channel, std::int64_t start, SigSeg<float> samples) {
    const std::int64_t length = samples.length();
    const std::size_t bytes = static_cast<std::size_t>(length) * sizeof(float);
    // The window gets it first: were it queued first, the writer could commit it before the window
    // held it, and the window would keep a stored piece until the next commit.
    live_->addSamples(channel, samples);
    return push(Write{channel, start, length, std::move(samples), {}, bytes, std::chrono::steady_clock::now()});
}

bool ArchiveWriter::pushItem(std::int64_t start, std::int64_t length, std::string json) {
    const std::size_t bytes = json.size();
    live_->addItem(start, length, json);  // first, as for samples
    return push(Write{-1, start, length, {}, std::move(json), bytes, std::chrono::steady_clock::now()});
}

bool ArchiveWriter::push(Write&& write) {
    // How often a pusher held up by a full queue asks whether the run is stopping.
    constexpr auto kStopCheckEvery = std::chrono::milliseconds(20);
    {
        std::unique_lock lock(mutex_);
        if (problem_) return false;
        if (pushed_ == 0) firstPush_ = std::chrono::steady_clock::now();
        // One write larger than the whole queue still goes in when the queue is empty.
        const auto full = [&] { return pendingBytes_ > 0 && pendingBytes_ + write.bytes > options_.queueBytes; };
        if (full() && options_.waitWhenBehind && options_.waitWhenBehind()) {
            // Back-pressure: the writer commits what it holds now instead of waiting for commitNs.
            roomAsked_ = true;
            wake_.notify_one();
            while (!committed_.wait_for(lock, kStopCheckEvery, [&] { return problem_ || !full(); })) {
                if (options_.stopWaiting && options_.stopWaiting()) break;
            }
            if (problem_) return false;
        } else if (full()) {
            problem_ = fellBehindMessage();
            queue_.clear();
            wake_.notify_one();
            committed_.notify_all();
            return false;
        }
        pendingBytes_ += write.bytes;
        pushedBytes_ += write.bytes;
        ++pushed_;
        queue_.push_back(std::move(write));
    }
    wake_.notify_one();
    return true;
}

std::string ArchiveWriter::fellBehindMessage() const {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - firstPush_;
    const double seconds = std::max(elapsed.count(), 1e-3);
    // MB/s with two decimals below 10, whole above (13400 MB/s, not 1.34e+04).
    const auto megabytesPerSecond = [&](std::uint64_t bytes) {
        const double rate = static_cast<double>(bytes) / seconds / 1e6;
        std::ostringstream text;
        text << std::fixed << std::setprecision(rate < 10 ? 2 : 0) << rate << " MB/s";
        return text.str();
    };
    std::ostringstream text;
    text << "archive '" << store_->path() << "', stream '" << info_.name << "': the writer fell " << (pendingBytes_ >> 10)
         << " KiB behind, more than its queue of " << (options_.queueBytes >> 10) << " KiB holds: the stream came in at "
         << megabytesPerSecond(pushedBytes_) << " and was written at " << megabytesPerSecond(committedBytes_)
         << "; recording stopped (the rest of the graph goes on)";
    if (!options_.behindAdvice.empty()) text << ". " << options_.behindAdvice;
    return text.str();
}

void ArchiveWriter::flush() {
    std::unique_lock lock(mutex_);
    const std::uint64_t target = pushed_;
    flushAsked_ = true;
    wake_.notify_one();
    committed_.wait(lock, [&] { return problem_ || committedWrites_ >= target; });
}

std::optional<std::string> ArchiveWriter::problem() const {
    std::lock_guard lock(mutex_);
    return problem_;
}

std::optional<ArchiveWriter::CommittedSpan> ArchiveWriter::committedSpan() const {
    std::lock_guard lock(mutex_);
    return committedSpan_;
}

std::optional<ArchiveWriter::StoredElsewhere> ArchiveWriter::storedElsewhere() const {
    std::lock_guard lock(mutex_);
    return storedElsewhere_;
}

std::uint64_t ArchiveWriter::lockWaits() const {
    std::lock_guard lock(mutex_);
    return lockWaits_;
}

std::size_t ArchiveWriter::pendingBytes() const {
    std::lock_guard lock(mutex_);
    return pendingBytes_;
}

void ArchiveWriter::stop(std::string why, std::string_view advice) {
    std::lock_guard lock(mutex_);
    if (!problem_) problem_ = std::move(why) + "; recording stopped" + (advice.empty() ? "" : ": " + std::string(advice));
    queue_.clear();
    committed_.notify_all();
}

void ArchiveWriter::enforceRetention(std::int64_t committedEnd) {
    if (options_.keepSamples > 0 && committedEnd - options_.keepSamples > retainedFrom_) {
        retainedFrom_ = committedEnd - options_.keepSamples;
        storedBytes_ -= store_->prune(info_.name, retainedFrom_).bytes;
    }
    // Oldest whole pieces first, until within the limit. Each step drops the samples that would hold
    // the excess as f32 (a compressed piece holds more samples per byte, so a few steps may follow);
    // a step that ends inside the oldest piece drops nothing, so it doubles until a piece fits.
    const std::int64_t bytesPerSample = info_.kind == ArchivedStreamInfo::Kind::Signal ? std::int64_t{sizeof(float)} * info_.channels : 1;
    std::int64_t grow = 1;
    while (options_.keepBytes > 0 && storedBytes_ > options_.keepBytes) {
        const std::optional<std::int64_t> oldest = store_->storedStart(info_.name);
        if (!oldest) break;
        const std::int64_t excess = storedBytes_ - options_.keepBytes;
        const std::int64_t step = grow * std::max<std::int64_t>(1, (excess + bytesPerSample - 1) / bytesPerSample);
        const ArchiveStore::Pruned pruned = store_->prune(info_.name, *oldest + step);
        grow = pruned.rows == 0 ? grow * 2 : 1;
        storedBytes_ -= pruned.bytes;
    }
}

std::size_t ArchiveWriter::holdBackPartialPieces(std::deque<Write>& batch, std::size_t count, std::chrono::steady_clock::time_point now,
                                                 std::chrono::nanoseconds holdFor, bool storeSomething) const {
    // Per channel: where its last run of contiguous writes among the first `count` starts and ends,
    // then where the held-back part begins (the run's end when nothing is held).
    const std::size_t channels = static_cast<std::size_t>(live_->channels());
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
    std::vector<std::int64_t> runStart(channels, kNone), runEnd(channels, kNone);
    for (std::size_t i = 0; i < count; ++i) {
        const Write& write = batch[i];
        const auto c = static_cast<std::size_t>(write.channel);
        if (write.start != runEnd[c]) runStart[c] = write.start;
        runEnd[c] = write.start + write.length;
    }
    std::vector<std::int64_t> heldFrom = runEnd;
    for (std::size_t c = 0; c < channels; ++c) {
        if (runEnd[c] == kNone) continue;
        heldFrom[c] = runStart[c] + (runEnd[c] - runStart[c]) / pieceSamples_ * pieceSamples_;
    }
    // A partial piece whose channel goes on in the writes behind it (a writer catching up) is joined
    // with them by the next commit, at once. Else samples pushed long ago are stored now, partial piece
    // or not: a recorder fed slowly (or not at all any more) must not keep them out of the file.
    std::vector<bool> continued(channels, false);
    for (std::size_t i = count; i < batch.size(); ++i) continued[static_cast<std::size_t>(batch[i].channel)] = true;
    for (std::size_t i = 0; i < count; ++i) {
        const Write& write = batch[i];
        const auto c = static_cast<std::size_t>(write.channel);
        if (!continued[c] && write.start + write.length > heldFrom[c] && now - write.pushedAt >= holdFor) heldFrom[c] = runEnd[c];
    }
    // Holding back everything would store nothing: with `storeSomething`, the writes go as they are.
    const auto storesAny = [&] {
        for (std::size_t i = 0; i < count; ++i) {
            if (batch[i].start < heldFrom[static_cast<std::size_t>(batch[i].channel)]) return true;
        }
        return false;
    };
    if (storeSomething && !storesAny()) return count;
    std::deque<Write> committing, held;
    for (std::size_t i = 0; i < count; ++i) {
        Write& write = batch[i];
        const std::int64_t cut = heldFrom[static_cast<std::size_t>(write.channel)];
        const std::int64_t end = write.start + write.length;
        if (end <= cut) {
            committing.push_back(std::move(write));
        } else if (write.start >= cut) {
            held.push_back(std::move(write));
        } else {
            Write head = write;
            head.length = cut - write.start;
            head.samples = write.samples.subseg(write.start, head.length);
            head.bytes = static_cast<std::size_t>(head.length) * sizeof(float);
            head.completesPush = false;
            write.samples = write.samples.subseg(cut, end - cut);
            write.bytes -= head.bytes;
            write.start = cut;
            write.length = end - cut;
            committing.push_back(std::move(head));
            held.push_back(std::move(write));
        }
    }
    const std::size_t committed = committing.size();
    // Each channel's held writes go before its later writes: the order per channel stays.
    for (Write& write : held) committing.push_back(std::move(write));
    for (std::size_t i = count; i < batch.size(); ++i) committing.push_back(std::move(batch[i]));
    batch = std::move(committing);
    return committed;
}

void ArchiveWriter::run() {
    using Clock = std::chrono::steady_clock;
    const auto commitEvery = std::chrono::nanoseconds(options_.commitNs);
    const double nsPerSample = 1e9 / info_.rateHz;
    try {
        store_->setLockWaitMs(options_.lockWaitMs);
        streamId_ = store_->openStream(info_);
        pieceSamples_ = store_->pieceSamples();
        if (options_.keepBytes > 0) storedBytes_ = store_->extent(info_.name).value_or(ArchivedExtent{}).bytes;
    } catch (const ArchiveError& e) {
        stop(e.what());
        return;
    }
    // Writes taken from the queue and not committed yet. They go into the file only at commit time,
    // in one short transaction: the write lock is never held while the writer waits for data, so
    // other writers of the file (a second io.archive_sink, another process) get it in between.
    std::deque<Write> batch;
    // Per channel, the samples a commit has joined and not stored yet: stored in whole pieces as they
    // fill, the rest at the end of the commit.
    struct JoinedRun {
        std::int64_t start = 0;
        std::vector<float> samples;
    };
    std::vector<JoinedRun> joined(static_cast<std::size_t>(live_->channels()));
    // What the live window is told at each commit: per channel the end written, items written.
    std::vector<std::int64_t> channelEnds(static_cast<std::size_t>(live_->channels()), std::numeric_limits<std::int64_t>::min());
    std::uint64_t itemsWritten = 0;
    std::int64_t lastItemRow = 0;
    std::int64_t itemsThrough = std::numeric_limits<std::int64_t>::min();  // items: the furthest end written
    // Item rows up to this were looked at by this writer's last commit (0 before the first); later
    // rows are another recorder's (or an earlier recording's, at the first commit).
    std::int64_t itemRowsSeen = 0;
    // The furthest end of the items others stored, as far as the commits have looked: an item of this
    // writer starting before it is dropped (the same items recorded twice are stored once).
    std::optional<std::int64_t> othersItemsEnd;
    const bool signal = info_.kind == ArchivedStreamInfo::Kind::Signal;
    auto lastCommit = Clock::now();
    // Inserts the batch's first `count` writes, over samples [start, end), and commits them, less what
    // another recorder stored first; on failure nothing of them is in the file and the batch stays as it was.
    const auto commitBatch = [&](std::size_t count, std::int64_t start, std::int64_t end) {
        std::vector<std::int64_t> ends = channelEnds;
        std::uint64_t items = itemsWritten;
        std::int64_t lastRow = lastItemRow;
        std::int64_t through = itemsThrough;
        std::int64_t storedBytes = 0;  // as stored (FLAC's when compressed): retention by bytes
        std::size_t queuedBytes = 0;   // as queued (the writer's memory bound)
        std::uint64_t completed = 0;   // pushed writes whose last sample this commit stores
        // Stores the first `length` samples `run` has joined (all when `length` is its whole size).
        const auto storeJoined = [&](int channel, JoinedRun& run, std::size_t length) {
            if (length == 0) return;
            storedBytes += static_cast<std::int64_t>(store_->appendSamples(streamId_, channel, run.start, std::span(run.samples).first(length)));
            run.samples.erase(run.samples.begin(), run.samples.begin() + static_cast<std::ptrdiff_t>(length));
            run.start += static_cast<std::int64_t>(length);
        };
        for (JoinedRun& run : joined) run.samples.clear();
        StoredElsewhere elsewhere;     // dropped by this commit as another recorder's
        std::optional<std::int64_t> othersEnd = othersItemsEnd;
        // The first stretch dropped, grown while the next drops follow on (the warning names it).
        const auto droppedAsElsewhere = [&](std::int64_t from, std::int64_t to) {
            if (elsewhere.samples == 0 && elsewhere.items == 0) {
                elsewhere.firstStart = from;
                elsewhere.firstEnd = to;
            } else if (from <= elsewhere.firstEnd) {
                elsewhere.firstEnd = std::max(elsewhere.firstEnd, to);
            }
        };
        try {
            // The write lock before the reads: no other writer commits between what they find and
            // the inserts, so what another recorder stored first is known exactly.
            store_->beginWrite();
            std::vector<std::int64_t> storedEnds(ends.size(), std::numeric_limits<std::int64_t>::min());
            if (signal) {
                for (std::size_t c = 0; c < storedEnds.size(); ++c) {
                    storedEnds[c] = store_->storedEnd(info_.name, static_cast<int>(c)).value_or(std::numeric_limits<std::int64_t>::min());
                }
            } else if (const std::optional<std::int64_t> newer = store_->itemsEndAfterRow(streamId_, itemRowsSeen)) {
                othersEnd = std::max(othersEnd.value_or(*newer), *newer);
            }
            for (std::size_t i = 0; i < count; ++i) {
                const Write& write = batch[i];
                const std::int64_t writeEnd = write.start + std::max<std::int64_t>(write.length, write.channel >= 0 ? 0 : 1);
                if (write.channel >= 0) {
                    // This writer's pieces of a channel come in order: a stored end past a piece's
                    // start is another recorder's, and the piece keeps only what lies after it.
                    const std::int64_t from = std::max(write.start, storedEnds[static_cast<std::size_t>(write.channel)]);
                    if (from > write.start) {
                        droppedAsElsewhere(write.start, std::min(from, writeEnd));
                        elsewhere.samples += std::min(from, writeEnd) - write.start;
                    }
                    if (from < writeEnd) {
                        // Joined to the channel's run (a gap stores the run first), stored by whole pieces.
                        JoinedRun& run = joined[static_cast<std::size_t>(write.channel)];
                        if (run.start + static_cast<std::int64_t>(run.samples.size()) != from) storeJoined(write.channel, run, run.samples.size());
                        if (run.samples.empty()) run.start = from;
                        const SigSeg<float> kept = from > write.start ? write.samples.subseg(from, writeEnd - from) : write.samples;
                        kept.forEachSpan([&](std::span<const float> span) { run.samples.insert(run.samples.end(), span.begin(), span.end()); });
                        const auto piece = static_cast<std::size_t>(pieceSamples_);
                        storeJoined(write.channel, run, run.samples.size() / piece * piece);
                    }
                    // Stored either way (by this writer, or first by another): the live window lets go of it.
                    std::int64_t& channelEnd = ends[static_cast<std::size_t>(write.channel)];
                    channelEnd = std::max(channelEnd, writeEnd);
                } else {
                    if (othersEnd && write.start < *othersEnd) {
                        droppedAsElsewhere(write.start, writeEnd);
                        ++elsewhere.items;
                    } else {
                        store_->appendItem(streamId_, write.start, write.length, write.json);
                        storedBytes += static_cast<std::int64_t>(write.json.size());
                    }
                    ++items;  // committed for the live window either way
                    through = std::max(through, writeEnd);
                }
                queuedBytes += write.bytes;
                if (write.completesPush) ++completed;
            }
            for (std::size_t c = 0; c < joined.size(); ++c) storeJoined(static_cast<int>(c), joined[c], joined[c].samples.size());
            // The readers' row bound covers the other recorder's rows of the items dropped here.
            if (!signal) lastRow = store_->lastItemRow();
            store_->commit();
        } catch (const ArchiveError&) {
            store_->rollback();
            throw;
        }
        if (!signal) {
            itemRowsSeen = lastRow;
            othersItemsEnd = othersEnd;
        }
        lastCommit = Clock::now();
        channelEnds = std::move(ends);
        itemsWritten = items;
        lastItemRow = lastRow;
        itemsThrough = through;
        const CommittedInterval interval{store_->path(), info_.name, start, end};
        storedBytes_ += storedBytes;
        // The live window lets go of what is now stored before flush() can see the commit (a
        // reader right after flush() finds it stored, not also live).
        live_->committed(channelEnds, itemsWritten, lastItemRow, othersItemsEnd.value_or(std::numeric_limits<std::int64_t>::min()));
        {
            std::lock_guard lock(mutex_);
            pendingBytes_ -= queuedBytes;
            committedBytes_ += queuedBytes;
            committedWrites_ += completed;
            if (elsewhere.samples > 0 || elsewhere.items > 0) {
                if (!storedElsewhere_) {
                    storedElsewhere_ = elsewhere;
                } else {
                    storedElsewhere_->samples += elsewhere.samples;
                    storedElsewhere_->items += elsewhere.items;
                    if (elsewhere.firstStart <= storedElsewhere_->firstEnd) storedElsewhere_->firstEnd = std::max(storedElsewhere_->firstEnd, elsewhere.firstEnd);
                }
            }
            const std::int64_t committedThrough = signal ? *std::min_element(channelEnds.begin(), channelEnds.end()) : itemsThrough;
            if (!committedSpan_) committedSpan_ = CommittedSpan{start, start};
            committedSpan_->through = std::max(committedSpan_->through, committedThrough);
        }
        committed_.notify_all();
        batch.erase(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(count));  // the segments go back to the pool
        if (options_.trigger) options_.trigger(interval);
        try {
            enforceRetention(interval.end);
        } catch (const ArchiveBusyError&) {
            // Another writer held the lock: the oldest pieces go after a later commit instead.
        }
    };
    for (;;) {
        bool finishing = false;
        bool roomAsked = false;  // a push waits for room: commit now, but a busy lock is retried as usual
        bool ending = false;
        {
            std::unique_lock lock(mutex_);
            const auto ready = [&] { return problem_ || ending_ || flushAsked_ || roomAsked_ || !queue_.empty(); };
            if (!batch.empty()) wake_.wait_until(lock, lastCommit + commitEvery, ready);
            else wake_.wait(lock, ready);
            if (problem_) return;  // the queue overflowed: what is committed stays, the rest is dropped
            for (Write& write : queue_) batch.push_back(std::move(write));
            queue_.clear();
            finishing = ending_ || flushAsked_;
            roomAsked = roomAsked_;
            roomAsked_ = false;
            ending = ending_;
            flushAsked_ = false;
        }
        // Each commitNs of data commits (so a crash loses at most about that much); the rest once
        // commitNs of wall time has passed since the last commit, at a flush or the end, or when a
        // push waits for room in the queue. Returns whether anything was committed.
        const auto commitDue = [&] {
            bool committed = false;
            while (!batch.empty()) {
                std::size_t count = 0;
                std::int64_t start = std::numeric_limits<std::int64_t>::max();
                std::int64_t end = std::numeric_limits<std::int64_t>::min();
                bool full = false;
                while (count < batch.size() && !full) {
                    start = std::min(start, batch[count].start);
                    end = std::max(end, batch[count].start + batch[count].length);
                    ++count;
                    // A signal's commit spans at least one piece as well, so that it stores one whole
                    // (below 8.2 kHz, commitNs of data is less than a piece).
                    full = (end - start) * nsPerSample >= static_cast<double>(options_.commitNs) && (!signal || end - start >= pieceSamples_);
                }
                const auto now = Clock::now();
                if (!full && !finishing && !roomAsked && now - lastCommit < commitEvery) break;
                if (signal && !finishing && !roomAsked) {
                    count = holdBackPartialPieces(batch, count, now, commitEvery / 2, full);
                    if (count == 0) {
                        // All of it waits to fill a piece: the next try after commitNs at the latest.
                        lastCommit = now;
                        break;
                    }
                    start = std::numeric_limits<std::int64_t>::max();
                    end = std::numeric_limits<std::int64_t>::min();
                    for (std::size_t i = 0; i < count; ++i) {
                        start = std::min(start, batch[i].start);
                        end = std::max(end, batch[i].start + batch[i].length);
                    }
                }
                commitBatch(count, start, end);
                committed = true;
            }
            return committed;
        };
        try {
            bool committed = false;
            try {
                committed = commitDue();
            } catch (const ArchiveDiskFullError&) {
                // A log that readers kept from being folded in may hold the room: a checkpoint lets
                // it start over at its beginning, and the batch (still whole) is tried once more.
                if (store_->foldLog()) throw;
                committed = commitDue();
            }
            if (finishing && !committed) committed_.notify_all();  // a flush with nothing left to commit
        } catch (const ArchiveBusyError& e) {
            // Another connection held the write lock longer than lockWaitMs: the batch stays and is
            // tried again after commitNs (the queue's bound stops a wait that never ends, unless the
            // pusher waits for room: then it waits on, as long as the lock is held). At a flush
            // or the end there is no later: the batch is lost, and reported.
            if (finishing) {
                stop(std::string(e.what()) + " (waited " + std::to_string(options_.lockWaitMs) + " ms for another writer's lock)");
                return;
            }
            lastCommit = Clock::now();
            std::lock_guard lock(mutex_);
            ++lockWaits_;
        } catch (const ArchiveDiskFullError& e) {
            stop(e.what(), diskFullAdvice());
            return;
        } catch (const ArchiveError& e) {
            stop(e.what());
            return;
        }
        if (ending && batch.empty()) {
            std::lock_guard lock(mutex_);
            if (queue_.empty()) return;
        }
    }
}

}  // namespace isochron
