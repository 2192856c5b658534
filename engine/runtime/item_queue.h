// The queue of one input port: a RingBuffer of items plus the sample count it holds (telemetry).
#pragma once

#include <cstddef>

#include "engine/items/item.h"
#include "engine/runtime/ring_buffer.h"

namespace isochron {

/// Unbounded FIFO of Items that never allocates once grown. [engine thread]
class ItemQueue {
public:
    bool empty() const noexcept { return items_.empty(); }
    std::size_t size() const noexcept { return items_.size(); }
    /// Samples referenced by queued items.
    std::size_t queuedSamples() const noexcept { return queuedSamples_; }

    void push(Item&& item) {
        queuedSamples_ += static_cast<std::size_t>(item.sampleCount());
        items_.push(std::move(item));
    }
    Item pop() noexcept {
        Item item = items_.pop();
        queuedSamples_ -= static_cast<std::size_t>(item.sampleCount());
        return item;
    }
    const Item& front() const noexcept { return items_.front(); }

private:
    RingBuffer<Item> items_;
    std::size_t queuedSamples_ = 0;
};

}  // namespace isochron
