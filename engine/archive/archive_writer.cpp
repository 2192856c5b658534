#include "engine/archive/archive_writer.h"

#include <algorithm>
#include <chrono>
#include <limits>
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

ArchiveWriter::~ArchiveWriter() {
    {
        std::lock_guard lock(mutex_);
        ending_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

bool ArchiveWriter::pushSamples(int channel, std::int64_t start, SigSeg<float> samples) {
    const std::int64_t length = samples.length();
    const std::size_t bytes = static_cast<std::size_t>(length) * sizeof(float);
    // The window gets it first: were it queued first, the writer could commit it before the window
    // held it, and the window would keep a stored piece until the next commit.
    live_->addSamples(channel, samples);
    return push(Write{channel, start, length, std::move(samples), {}, bytes});
}

bool ArchiveWriter::pushItem(std::int64_t start, std::int64_t length, std::string json) {
    const std::size_t bytes = json.size();
    live_->addItem(start, length, json);  // first, as for samples
    return push(Write{-1, start, length, {}, std::move(json), bytes});
}

bool ArchiveWriter::push(Write&& write) {
    {
        std::lock_guard lock(mutex_);
        if (problem_) return false;
        // One write larger than the whole queue still goes in when the queue is empty.
        if (pendingBytes_ > 0 && pendingBytes_ + write.bytes > options_.queueBytes) {
            problem_ = "archive '" + store_->path() + "': the writer fell " + std::to_string(pendingBytes_ >> 10) +
                       " KiB behind, more than its queue holds (the disk is slower than the stream); recording stopped";
            queue_.clear();
            wake_.notify_one();
            committed_.notify_all();
            return false;
        }
        pendingBytes_ += write.bytes;
        ++pushed_;
        queue_.push_back(std::move(write));
    }
    wake_.notify_one();
    return true;
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

std::uint64_t ArchiveWriter::lockWaits() const {
    std::lock_guard lock(mutex_);
    return lockWaits_;
}

std::size_t ArchiveWriter::pendingBytes() const {
    std::lock_guard lock(mutex_);
    return pendingBytes_;
}

void ArchiveWriter::stop(std::string why) {
    std::lock_guard lock(mutex_);
    if (!problem_) problem_ = std::move(why) + "; recording stopped";
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

void ArchiveWriter::run() {
    using Clock = std::chrono::steady_clock;
    const auto commitEvery = std::chrono::nanoseconds(options_.commitNs);
    const double nsPerSample = 1e9 / info_.rateHz;
    try {
        store_->setLockWaitMs(options_.lockWaitMs);
        streamId_ = store_->openStream(info_);
        if (options_.keepBytes > 0) storedBytes_ = store_->extent(info_.name).value_or(ArchivedExtent{}).bytes;
    } catch (const ArchiveError& e) {
        stop(e.what());
        return;
    }
    // Writes taken from the queue and not committed yet. They go into the file only at commit time,
    // in one short transaction: the write lock is never held while the writer waits for data, so
    // other writers of the file (a second io.archive_sink, another process) get it in between.
    std::deque<Write> batch;
    std::vector<float> scratch;
    // What the live window is told at each commit: per channel the end written, items written.
    std::vector<std::int64_t> channelEnds(static_cast<std::size_t>(live_->channels()), std::numeric_limits<std::int64_t>::min());
    std::uint64_t itemsWritten = 0;
    std::int64_t lastItemRow = 0;
    std::int64_t itemsThrough = std::numeric_limits<std::int64_t>::min();  // items: the furthest end written
    auto lastCommit = Clock::now();
    // Inserts the batch's first `count` writes, over samples [start, end), and commits them; on failure
    // nothing of them is in the file and the batch stays as it was.
    const auto commitBatch = [&](std::size_t count, std::int64_t start, std::int64_t end) {
        std::vector<std::int64_t> ends = channelEnds;
        std::uint64_t items = itemsWritten;
        std::int64_t lastRow = lastItemRow;
        std::int64_t through = itemsThrough;
        std::int64_t storedBytes = 0;  // as stored (FLAC's when compressed): retention by bytes
        std::size_t queuedBytes = 0;   // as queued (the writer's memory bound)
        try {
            for (std::size_t i = 0; i < count; ++i) {
                const Write& write = batch[i];
                if (write.channel >= 0) {
                    scratch.resize(static_cast<std::size_t>(write.length));
                    std::size_t at = 0;
                    write.samples.forEachSpan([&](std::span<const float> run) {
                        std::copy(run.begin(), run.end(), scratch.begin() + static_cast<std::ptrdiff_t>(at));
                        at += run.size();
                    });
                    storedBytes += static_cast<std::int64_t>(store_->appendSamples(streamId_, write.channel, write.start, scratch));
                    std::int64_t& channelEnd = ends[static_cast<std::size_t>(write.channel)];
                    channelEnd = std::max(channelEnd, write.start + write.length);
                } else {
                    lastRow = store_->appendItem(streamId_, write.start, write.length, write.json);
                    storedBytes += static_cast<std::int64_t>(write.json.size());
                    ++items;
                    through = std::max(through, write.start + std::max<std::int64_t>(write.length, 1));
                }
                queuedBytes += write.bytes;
            }
            store_->commit();
        } catch (const ArchiveError&) {
            store_->rollback();
            throw;
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
        live_->committed(channelEnds, itemsWritten, lastItemRow);
        {
            std::lock_guard lock(mutex_);
            pendingBytes_ -= queuedBytes;
            committedWrites_ += count;
            const std::int64_t committedThrough = info_.kind == ArchivedStreamInfo::Kind::Signal
                                                      ? *std::min_element(channelEnds.begin(), channelEnds.end())
                                                      : itemsThrough;
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
        bool ending = false;
        {
            std::unique_lock lock(mutex_);
            const auto ready = [&] { return problem_ || ending_ || flushAsked_ || !queue_.empty(); };
            if (!batch.empty()) wake_.wait_until(lock, lastCommit + commitEvery, ready);
            else wake_.wait(lock, ready);
            if (problem_) return;  // the queue overflowed: what is committed stays, the rest is dropped
            for (Write& write : queue_) batch.push_back(std::move(write));
            queue_.clear();
            finishing = ending_ || flushAsked_;
            ending = ending_;
            flushAsked_ = false;
        }
        try {
            // Each commitNs of data commits (so a crash loses at most about that much); the rest once
            // commitNs of wall time has passed since the last commit, or at a flush or the end.
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
                    full = (end - start) * nsPerSample >= static_cast<double>(options_.commitNs);
                }
                if (!full && !finishing && Clock::now() - lastCommit < commitEvery) break;
                commitBatch(count, start, end);
                committed = true;
            }
            if (finishing && !committed) committed_.notify_all();  // a flush with nothing left to commit
        } catch (const ArchiveBusyError& e) {
            // Another connection held the write lock longer than lockWaitMs: the batch stays and is
            // tried again after commitNs (the queue's bound stops a wait that never ends). At a flush
            // or the end there is no later: the batch is lost, and reported.
            if (finishing) {
                stop(std::string(e.what()) + " (waited " + std::to_string(options_.lockWaitMs) + " ms for another writer's lock)");
                return;
            }
            lastCommit = Clock::now();
            std::lock_guard lock(mutex_);
            ++lockWaits_;
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
