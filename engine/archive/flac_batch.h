// FlacBatch: the FLAC pieces of one ArchiveStore::get, decoded while its rows are still being read.
// A 10 s get of 48 kHz audio decodes 100 pieces a channel, and decoding is most of its cost; a get
// long enough (kTwoThreadSamples) has a helper thread decode beside the thread reading the rows,
// from the first row on, so that SQLite's reads overlap the decoding. The helper is started once,
// at the first such get, and kept (waiting) until the batch is destroyed: the 8 gets of an 8-channel
// interval start one thread, not 8.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "engine/archive/flac_piece.h"

namespace isochron {

/// Pieces decoded as they are added, on the calling thread and on a helper thread beside it; each
/// thread keeps its own FlacPieceDecoder from batch to batch. [one caller thread at a time per object;
/// the helper is internal]
class FlacBatch {
public:
    /// A batch expecting this many samples or more is decoded on two threads (decoding this many
    /// takes about a millisecond; waking the helper tens of microseconds); fewer decode on the
    /// calling thread only.
    static constexpr std::int64_t kTwoThreadSamples = 1 << 16;

    FlacBatch();
    /// Stops and joins the helper thread (no batch may be open). [blocks until the helper ends]
    ~FlacBatch();
    FlacBatch(const FlacBatch&) = delete;
    FlacBatch& operator=(const FlacBatch&) = delete;

    /// Open a batch of at most `expectedSamples` samples (an upper bound: the interval's length);
    /// from kTwoThreadSamples on, the helper decodes beside the caller (started here the first time;
    /// if no thread can be had, the caller decodes alone). [may start a thread]
    void begin(std::int64_t expectedSamples);
    /// Add a piece: `bytes`, which hold `length` samples, of which [skip, skip + out.size()) go to
    /// `out`; `tag` names it in finish()'s answer. The piece is decoded at once on the calling thread
    /// while kHelperBatch pieces wait for the helper (or there is no helper), else `bytes` are copied
    /// (a SQLite blob lives only until the next row) and left to the helper. `out` must stay valid until
    /// finish() or abandon() returns. [allocates until the batch's buffers have grown]
    void add(std::span<const std::byte> bytes, std::int64_t length, std::int64_t skip, std::span<float> out, std::int64_t tag);
    /// A piece that did not decode: its tag and the samples it should hold.
    struct Broken {
        std::int64_t tag, length;
    };
    /// Decode what is still waiting (with the helper) and close the batch: the first piece (in the
    /// order added) that did not decode, or nothing when all did. [blocks until the helper's piece is done]
    std::optional<Broken> finish();
    /// Close the batch without decoding what waits (a get that throws: its `out` buffers are about to
    /// go). [blocks until the helper's piece in hand is done]
    void abandon() noexcept;

private:
    /// Pieces the helper is given to wait in its queue (the caller decodes in place beyond them).
    static constexpr std::size_t kHelperBatch = 4;
    struct Piece {
        std::vector<std::byte> bytes;  // a copy, for the helper (kept from batch to batch: no allocation)
        std::span<const std::byte> source;
        std::int64_t length = 0, skip = 0;
        std::span<float> out;
        std::int64_t tag = 0;
        bool decoded = false;
    };
    /// The helper thread: decodes queued pieces until stopped.
    void helperLoop();
    /// Waits (holding `lock`) until the helper has no piece in hand, then empties the batch.
    void closeBatch(std::unique_lock<std::mutex>& lock);

    FlacPieceDecoder callerDecoder_;
    FlacPieceDecoder helperDecoder_;
    std::deque<Piece> pieces_;          // slots [0, used_) hold this batch's pieces, in order; kept for reuse
    std::size_t used_ = 0;
    bool twoThreads_ = false;           // this batch queues pieces for the helper
    std::mutex mutex_;                  // guards what follows
    std::vector<Piece*> queue_;         // pieces copied for the helper; [head_, end) not yet taken
    std::size_t head_ = 0;
    int inHand_ = 0;                    // pieces the helper is decoding (0 or 1)
    bool stop_ = false;
    std::condition_variable work_;      // the helper waits for queued pieces or stop_
    std::condition_variable idle_;      // the caller waits for inHand_ == 0
    std::thread helper_;                // started at the first two-thread batch; not joinable before
};

}  // namespace isochron
