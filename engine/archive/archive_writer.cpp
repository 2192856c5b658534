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
    SigSeg<float> live = samples;
    if (!push(Write{channel, start, length, std::move(samples), {}, bytes})) return false;
    live_->addSamples(channel, std::move(live));
    return true;
}

bool ArchiveWriter::pushItem(std::int64_t start, std::int64_t length, std::string json) {
    const std::size_t bytes = json.size();
    std::string live = json;
    if (!push(Write{-1, start, length, {}, std::move(json), bytes})) return false;
    live_->addItem(start, length, std::move(live));
    return true;
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
        streamId_ = store_->openStream(info_);
        if (options_.keepBytes > 0) storedBytes_ = store_->extent(info_.name).value_or(ArchivedExtent{}).bytes;
    } catch (const ArchiveError& e) {
        stop(e.what());
        return;
    }
    std::deque<Write> taken;
    std::vector<float> scratch;
    // What went into the open transaction and is not committed yet.
    std::uint64_t uncommittedWrites = 0;
    std::size_t uncommittedBytes = 0;        // as queued (the writer's memory bound)
    std::int64_t uncommittedStoredBytes = 0;  // as stored (FLAC's when compressed): retention by bytes
    std::int64_t uncommittedStart = std::numeric_limits<std::int64_t>::max();
    std::int64_t uncommittedEnd = std::numeric_limits<std::int64_t>::min();
    // What the live window is told at each commit: per channel the end written, items written.
    std::vector<std::int64_t> channelEnds(static_cast<std::size_t>(live_->channels()), std::numeric_limits<std::int64_t>::min());
    std::uint64_t itemsWritten = 0;
    std::int64_t lastItemRow = 0;
    std::int64_t itemsThrough = std::numeric_limits<std::int64_t>::min();  // items: the furthest end written
    auto lastCommit = Clock::now();
    for (;;) {
        bool finishing = false;
        {
            std::unique_lock lock(mutex_);
            const auto ready = [&] { return problem_ || ending_ || flushAsked_ || !queue_.empty(); };
            if (uncommittedWrites > 0) wake_.wait_until(lock, lastCommit + commitEvery, ready);
            else wake_.wait(lock, ready);
            if (problem_) return;  // the queue overflowed: what is committed stays, the rest is dropped
            taken.swap(queue_);
            finishing = ending_ || flushAsked_;
            flushAsked_ = false;
        }
        try {
            const auto commitNow = [&] {
                store_->commit();
                lastCommit = Clock::now();
                const CommittedInterval interval{store_->path(), info_.name, uncommittedStart, uncommittedEnd};
                storedBytes_ += uncommittedStoredBytes;
                // The live window lets go of what is now stored before flush() can see the commit (a
                // reader right after flush() finds it stored, not also live).
                live_->committed(channelEnds, itemsWritten, lastItemRow);
                {
                    std::lock_guard lock(mutex_);
                    pendingBytes_ -= uncommittedBytes;
                    committedWrites_ += uncommittedWrites;
                    const std::int64_t through = info_.kind == ArchivedStreamInfo::Kind::Signal
                                                     ? *std::min_element(channelEnds.begin(), channelEnds.end())
                                                     : itemsThrough;
                    if (!committedSpan_) committedSpan_ = CommittedSpan{uncommittedStart, uncommittedStart};
                    committedSpan_->through = std::max(committedSpan_->through, through);
                }
                committed_.notify_all();
                uncommittedWrites = 0;
                uncommittedBytes = 0;
                uncommittedStoredBytes = 0;
                uncommittedStart = std::numeric_limits<std::int64_t>::max();
                uncommittedEnd = std::numeric_limits<std::int64_t>::min();
                if (options_.trigger) options_.trigger(interval);
                enforceRetention(interval.end);
            };
            for (Write& write : taken) {
                if (write.channel >= 0) {
                    scratch.resize(static_cast<std::size_t>(write.length));
                    std::size_t at = 0;
                    write.samples.forEachSpan([&](std::span<const float> run) {
                        std::copy(run.begin(), run.end(), scratch.begin() + static_cast<std::ptrdiff_t>(at));
                        at += run.size();
                    });
                    uncommittedStoredBytes += static_cast<std::int64_t>(store_->appendSamples(streamId_, write.channel, write.start, scratch));
                    std::int64_t& end = channelEnds[static_cast<std::size_t>(write.channel)];
                    end = std::max(end, write.start + write.length);
                } else {
                    lastItemRow = store_->appendItem(streamId_, write.start, write.length, write.json);
                    uncommittedStoredBytes += static_cast<std::int64_t>(write.json.size());
                    ++itemsWritten;
                    itemsThrough = std::max(itemsThrough, write.start + std::max<std::int64_t>(write.length, 1));
                }
                write.samples = {};  // the segment goes back to the pool now, not with the whole batch
                ++uncommittedWrites;
                uncommittedBytes += write.bytes;
                uncommittedStart = std::min(uncommittedStart, write.start);
                uncommittedEnd = std::max(uncommittedEnd, write.start + write.length);
                // commitNs of data in the transaction: commit, so a crash loses at most about that much.
                if ((uncommittedEnd - uncommittedStart) * nsPerSample >= static_cast<double>(options_.commitNs)) commitNow();
            }
            taken.clear();
            if (uncommittedWrites > 0 && (finishing || Clock::now() - lastCommit >= commitEvery)) commitNow();
            else if (finishing) committed_.notify_all();  // a flush with nothing left to commit
        } catch (const ArchiveError& e) {
            taken.clear();
            stop(e.what());
            return;
        }
        std::lock_guard lock(mutex_);
        if (ending_ && queue_.empty()) return;
    }
}

}  // namespace isochron
