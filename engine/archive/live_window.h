// LiveWindow: the in-memory part of a stream being recorded (issue 13's "live window"), so that a
// reader can ask for an interval that reaches past what the archive has committed.
//
// The recorder (ArchiveWriter) adds every segment and item it queues for the disk, and tells the
// window what each commit made durable. The window holds, per channel, the pieces that arrived
// (shared SigSegs: no copy) and the items, and after each commit (on the writer thread, so the
// recording thread never releases memory here) drops from the oldest end only what is both committed
// and older than the newest `keepSamples` samples. So it holds at most `keepSamples` per channel plus
// what is not yet committed (which the writer's queue bounds: queue_mb) plus what arrived since the
// last commit (commit_s), and every sample it has dropped is in the archive (unless retention pruned
// it there too).
//
// Items carry no identity, so a reader that combines the archive with the window must not count an
// item twice nor miss one committed meanwhile: the window reports, with the items not yet committed,
// the archive row id of the last item committed before them (ItemsSnapshot::storedRowBound); the
// archive's rows of the stream up to that id and the snapshot's items are then exactly everything,
// whatever commits happen while the reader reads. Items another recorder of the stream stored first
// (which this recorder drops, ArchiveWriter) are not reported as uncommitted: the archive holds them.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <limits>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron {

/// Items of the live window not yet committed, and where the archive's committed ones end. [value type]
struct LiveItems {
    std::vector<ArchivedItem> uncommitted;  ///< start order (ties: arrival order)
    std::int64_t storedRowBound = 0;        ///< archive rows (events.rowid) of the stream up to this are the committed rest
};

/// Recent and uncommitted samples and items of one recorded stream. [add*: one recording thread;
/// committed(): the writer thread; readers: any thread]
class LiveWindow {
public:
    /// A window over `channels` channels (1 for an item stream) keeping at least the newest
    /// `keepSamples` samples (>= 0) per channel; items committed before `storedRowBound` (the
    /// archive's last events row id when recording starts) are not the window's.
    LiveWindow(int channels, std::int64_t keepSamples, std::int64_t storedRowBound);

    /// Samples of `channel`, later than any added before on it. [recording thread] [no disk access]
    void addSamples(int channel, SigSeg<float> samples);
    /// One item, in the order the writer commits items. [recording thread]
    void addItem(std::int64_t start, std::int64_t length, std::string json);
    /// A commit made durable every channel's samples up to `channelEnds[c]`, the first `itemCount`
    /// items added, the last of them in archive row `lastItemRow`; items starting before
    /// `othersItemsEnd` are stored by another recorder (rows up to `lastItemRow`), so the recorder
    /// will drop its own: they are no longer reported as uncommitted. [writer thread]
    void committed(std::span<const std::int64_t> channelEnds, std::uint64_t itemCount, std::int64_t lastItemRow,
                   std::int64_t othersItemsEnd = std::numeric_limits<std::int64_t>::min());

    /// The pieces of `channel` the window holds inside [l, h), clipped, in order, without gaps
    /// (where none is held the caller sees a hole between pieces). [any thread]
    std::vector<ArchivedPiece> samples(int channel, std::int64_t l, std::int64_t h) const;
    /// Every item held (committed or not) starting in [l, h), in start order. [any thread]
    std::vector<ArchivedItem> items(std::int64_t l, std::int64_t h) const;
    /// Items not committed yet, starting in [l, h), with the archive row bound that completes them. [any thread]
    LiveItems uncommittedItems(std::int64_t l, std::int64_t h) const;

    int channels() const { return static_cast<int>(channels_.size()); }
    /// Bytes of samples and JSON text held now. [any thread] [no lock]
    std::size_t heldBytes() const;

private:
    struct Channel {
        std::deque<SigSeg<float>> pieces;
        std::int64_t committedEnd = 0;  // samples before this are in the archive
    };
    struct HeldItem {
        std::uint64_t sequence = 0;  // 1 for the first item added
        ArchivedItem item;
    };

    struct Incoming {
        int channel = 0;
        SigSeg<float> samples;
    };

    /// Moves what the recording thread added into the channels. [mutex_ held]
    void absorbIncoming() const;
    /// Samples of `channel` before this are committed and older than the newest keepSamples_. [mutex_ held]
    std::int64_t keepFrom(const Channel& channel) const;
    /// The item is committed and older than the newest keepSamples_: no longer the window's. [mutex_ held]
    bool outstayed(const HeldItem& held) const;
    void evict(Channel& channel, std::vector<SigSeg<float>>& dropped);
    void evictItems(std::vector<HeldItem>& dropped);

    const std::int64_t keepSamples_;
    // The recording thread only appends to incoming_ under its own lock, held for a push_back; the
    // writer thread and readers move it into channels_ under mutex_ (a swap under incomingMutex_),
    // so the recording thread never waits while another thread evicts or reads.
    mutable std::mutex incomingMutex_;
    mutable std::vector<Incoming> incoming_;
    mutable std::vector<Incoming> absorbed_;  // swapped with incoming_, emptied, kept for its capacity
    mutable std::mutex mutex_;
    mutable std::vector<Channel> channels_;
    std::deque<HeldItem> items_;
    std::uint64_t itemsAdded_ = 0;
    std::uint64_t itemsCommitted_ = 0;
    std::int64_t storedRowBound_ = 0;
    std::int64_t othersItemsEnd_ = std::numeric_limits<std::int64_t>::min();  // items before it: another recorder's copies are stored
    std::int64_t newestItemEnd_ = 0;
    std::atomic<std::size_t> heldBytes_ = 0;  // counted when added, so heldBytes() takes no lock
};

}  // namespace isochron
