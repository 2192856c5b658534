// A min-heap of items by (time, input, arrival number on that input): the order the in-order
// operators release items in, independent of how inputs happened to interleave.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/items/item.h"
#include "nodes/streams/held_items.h"

namespace isochron {

/// Items held until released in time order; ties broken by input port, then by arrival on that
/// port. [engine thread] [allocates only when it grows past every earlier size]
class TimeOrderedHeap {
public:
    struct Entry {
        TimeNs time;
        int port;
        std::uint64_t sequence;
        std::uint64_t bytes;
        Item item;
    };

    void push(int port, Item&& item) {
        const TimeNs time = item.time();
        const std::uint64_t bytes = approximateBytes(item) + (sizeof(Entry) - sizeof(Item));
        held_.add(bytes);
        entries_.push_back(Entry{time, port, nextSequence_++, bytes, std::move(item)});
        std::push_heap(entries_.begin(), entries_.end(), later);
    }
    bool empty() const { return entries_.empty(); }
    /// Time of the earliest held item (the heap must not be empty).
    TimeNs earliestTime() const { return entries_.front().time; }
    /// Remove and return the earliest item.
    Item pop() {
        std::pop_heap(entries_.begin(), entries_.end(), later);
        Entry entry = std::move(entries_.back());
        entries_.pop_back();
        held_.remove(entry.bytes);
        return std::move(entry.item);
    }
    const HeldState& held() const { return held_.state(); }

private:
    static bool later(const Entry& a, const Entry& b) {
        if (a.time != b.time) return a.time > b.time;
        if (a.port != b.port) return a.port > b.port;
        return a.sequence > b.sequence;
    }

    std::vector<Entry> entries_;
    std::uint64_t nextSequence_ = 0;
    HeldStateCounter held_;
};

}  // namespace isochron
