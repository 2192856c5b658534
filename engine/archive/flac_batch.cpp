#include "engine/archive/flac_batch.h"

#include <algorithm>
#include <system_error>

namespace isochron {

FlacBatch::FlacBatch() = default;

FlacBatch::~FlacBatch() {
    if (!helper_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    work_.notify_one();
    helper_.join();
}

void FlacBatch::begin(std::int64_t expectedSamples) {
    twoThreads_ = false;
    if (expectedSamples < kTwoThreadSamples) return;
    if (!helper_.joinable()) {
        try {
            helper_ = std::thread([this] { helperLoop(); });
        } catch (const std::system_error&) {  // no thread to be had: this one decodes everything
            return;
        }
    }
    twoThreads_ = true;
}

void FlacBatch::add(std::span<const std::byte> bytes, std::int64_t length, std::int64_t skip, std::span<float> out, std::int64_t tag) {
    Piece* piece = nullptr;
    if (used_ < pieces_.size()) {
        piece = &pieces_[used_];
    } else {
        piece = &pieces_.emplace_back();  // the helper holds pointers to slots, which a deque never moves
    }
    ++used_;
    piece->length = length;
    piece->skip = skip;
    piece->out = out;
    piece->tag = tag;
    piece->decoded = false;
    if (twoThreads_) {
        std::unique_lock lock(mutex_);
        // Fewer than kHelperBatch pieces waiting: the helper could run dry, so this one goes to it.
        // Otherwise the caller decodes it now, from the blob in place (no copy); a preempted helper
        // thus never holds the caller up for more than the piece in its hands. The helper is woken
        // when a batch waits, not for each piece: on a loaded core that the two threads share, a
        // wake per piece would switch threads for every piece.
        if (queue_.size() - head_ < kHelperBatch) {
            lock.unlock();
            piece->bytes.assign(bytes.begin(), bytes.end());
            piece->source = piece->bytes;
            lock.lock();
            queue_.push_back(piece);
            const bool batchWaits = queue_.size() - head_ == kHelperBatch;
            lock.unlock();
            if (batchWaits) work_.notify_one();
            return;
        }
    }
    piece->decoded = callerDecoder_.decode(bytes, length, skip, out);
}

void FlacBatch::helperLoop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        work_.wait(lock, [this] { return stop_ || head_ < queue_.size(); });
        if (stop_) return;
        Piece* piece = queue_[head_++];
        ++inHand_;
        lock.unlock();
        piece->decoded = helperDecoder_.decode(piece->source, piece->length, piece->skip, piece->out);
        lock.lock();
        if (--inHand_ == 0) idle_.notify_one();
    }
}

std::optional<FlacBatch::Broken> FlacBatch::finish() {
    std::unique_lock lock(mutex_);
    if (head_ < queue_.size()) work_.notify_one();  // fewer than a batch may wait, the helper asleep
    while (head_ < queue_.size()) {
        Piece* piece = queue_[head_++];
        lock.unlock();
        piece->decoded = callerDecoder_.decode(piece->source, piece->length, piece->skip, piece->out);
        lock.lock();
    }
    std::optional<Broken> failed;
    idle_.wait(lock, [this] { return inHand_ == 0; });
    const auto end = pieces_.begin() + static_cast<std::ptrdiff_t>(used_);
    const auto broken = std::find_if(pieces_.begin(), end, [](const Piece& piece) { return !piece.decoded; });
    if (broken != end) failed = Broken{broken->tag, broken->length};
    closeBatch(lock);
    return failed;
}

void FlacBatch::abandon() noexcept {
    std::unique_lock lock(mutex_);
    head_ = queue_.size();  // what waits is dropped
    closeBatch(lock);
}

void FlacBatch::closeBatch(std::unique_lock<std::mutex>& lock) {
    idle_.wait(lock, [this] { return inHand_ == 0; });
    queue_.clear();
    head_ = 0;
    used_ = 0;
    twoThreads_ = false;
}

}  // namespace isochron
