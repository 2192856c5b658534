#include "engine/archive/live_window.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace isochron {

LiveWindow::LiveWindow(int channels, std::int64_t keepSamples, std::int64_t storedRowBound)
    : keepSamples_(std::max<std::int64_t>(0, keepSamples)), channels_(static_cast<std::size_t>(std::max(1, channels))), storedRowBound_(storedRowBound) {}

void LiveWindow::addSamples(int channel, SigSeg<float> samples) {
    if (channel < 0 || channel >= channels()) throw std::out_of_range("LiveWindow: no channel " + std::to_string(channel));
    heldBytes_ += static_cast<std::size_t>(samples.length()) * sizeof(float);
    std::lock_guard lock(incomingMutex_);
    incoming_.push_back({channel, std::move(samples)});
}

void LiveWindow::absorbIncoming() const {
    {
        std::lock_guard lock(incomingMutex_);
        incoming_.swap(absorbed_);
    }
    for (Incoming& added : absorbed_) {
        channels_[static_cast<std::size_t>(added.channel)].pieces.push_back(std::move(added.samples));
    }
    absorbed_.clear();
}

void LiveWindow::addItem(std::int64_t start, std::int64_t length, std::string json) {
    std::lock_guard lock(mutex_);
    heldBytes_ += json.size();
    items_.push_back({++itemsAdded_, ArchivedItem{start, length, std::move(json)}});
    newestItemEnd_ = std::max(newestItemEnd_, start + length);
}

void LiveWindow::committed(std::span<const std::int64_t> channelEnds, std::uint64_t itemCount, std::int64_t lastItemRow, std::int64_t othersItemsEnd) {
    // What is dropped is released after the lock: the recording thread never waits for the pool.
    std::vector<SigSeg<float>> dropped;
    std::vector<HeldItem> droppedItems;
    std::lock_guard lock(mutex_);
    absorbIncoming();
    for (std::size_t c = 0; c < channels_.size() && c < channelEnds.size(); ++c) {
        channels_[c].committedEnd = std::max(channels_[c].committedEnd, channelEnds[c]);
        evict(channels_[c], dropped);
    }
    if (itemCount > itemsCommitted_) {
        itemsCommitted_ = itemCount;
        storedRowBound_ = lastItemRow;
    }
    // With the row bound that covers the other recorder's rows, in one step for readers.
    othersItemsEnd_ = std::max(othersItemsEnd_, othersItemsEnd);
    evictItems(droppedItems);
}

std::int64_t LiveWindow::keepFrom(const Channel& channel) const {
    if (channel.pieces.empty()) return channel.committedEnd;
    return std::min(channel.committedEnd, channel.pieces.back().endIndex() - keepSamples_);
}

bool LiveWindow::outstayed(const HeldItem& held) const {
    return held.sequence <= itemsCommitted_ && held.item.start + held.item.length <= newestItemEnd_ - keepSamples_;
}

void LiveWindow::evict(Channel& channel, std::vector<SigSeg<float>>& dropped) {
    const std::int64_t keepFrom = this->keepFrom(channel);
    while (!channel.pieces.empty() && channel.pieces.front().endIndex() <= keepFrom) {
        heldBytes_ -= static_cast<std::size_t>(channel.pieces.front().length()) * sizeof(float);
        dropped.push_back(std::move(channel.pieces.front()));
        channel.pieces.pop_front();
    }
}

void LiveWindow::evictItems(std::vector<HeldItem>& dropped) {
    // Oldest added first; an item arriving out of order may outstay its time a little.
    while (!items_.empty() && outstayed(items_.front())) {
        heldBytes_ -= items_.front().item.json.size();
        dropped.push_back(std::move(items_.front()));
        items_.pop_front();
    }
}

std::vector<ArchivedPiece> LiveWindow::samples(int channel, std::int64_t l, std::int64_t h) const {
    std::lock_guard lock(mutex_);
    std::vector<ArchivedPiece> found;
    if (channel < 0 || channel >= channels()) return found;
    absorbIncoming();
    const std::deque<SigSeg<float>>& pieces = channels_[static_cast<std::size_t>(channel)].pieces;
    // Pieces of a channel are in order and do not overlap: find the first ending after l (and after
    // what a commit already let go of: a piece added after the commit that stored it is not held).
    const std::int64_t after = std::max(l, keepFrom(channels_[static_cast<std::size_t>(channel)]));
    auto it = std::partition_point(pieces.begin(), pieces.end(), [&](const SigSeg<float>& piece) { return piece.endIndex() <= after; });
    for (; it != pieces.end() && it->startIndex() < h; ++it) {
        const std::int64_t from = std::max(l, it->startIndex());
        const std::int64_t to = std::min(h, it->endIndex());
        found.push_back({from, to - from, (from == it->startIndex() && to == it->endIndex()) ? *it : it->subseg(from, to - from), PieceOrigin::Live});
    }
    return found;
}

std::vector<ArchivedItem> LiveWindow::items(std::int64_t l, std::int64_t h) const {
    std::lock_guard lock(mutex_);
    std::vector<ArchivedItem> found;
    for (const HeldItem& held : items_) {
        // An item added after the commit that stored it is no longer the window's.
        if (!outstayed(held) && held.item.start >= l && held.item.start < h) found.push_back(held.item);
    }
    std::stable_sort(found.begin(), found.end(), [](const ArchivedItem& a, const ArchivedItem& b) { return a.start < b.start; });
    return found;
}

LiveItems LiveWindow::uncommittedItems(std::int64_t l, std::int64_t h) const {
    std::lock_guard lock(mutex_);
    LiveItems found;
    found.storedRowBound = storedRowBound_;
    for (const HeldItem& held : items_) {
        // An item before what another recorder stored is the recorder's to drop: the archive has its copy.
        const bool storedElsewhere = held.item.start < othersItemsEnd_;
        if (held.sequence > itemsCommitted_ && !storedElsewhere && held.item.start >= l && held.item.start < h) found.uncommitted.push_back(held.item);
    }
    std::stable_sort(found.uncommitted.begin(), found.uncommitted.end(), [](const ArchivedItem& a, const ArchivedItem& b) { return a.start < b.start; });
    return found;
}

std::size_t LiveWindow::heldBytes() const {
    return heldBytes_.load(std::memory_order_relaxed);
}

}  // namespace isochron
