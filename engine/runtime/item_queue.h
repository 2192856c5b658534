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
    /// Bytes of those samples.
    std::size_t queuedBytes() const noexcept { return queuedBytes_; }
    /// Mean arrival time of queued items that carry one (0 if none): a queue's latency is now - this.
    TimeNs meanArrivalNs() const noexcept {
        return arrivals_ ? arrivalBase_ + arrivalOffsetSum_ / static_cast<TimeNs>(arrivals_) : 0;
    }

    void push(Item&& item) {
        account(item, +1);
        items_.push(std::move(item));
    }
    Item pop() noexcept {
        Item item = items_.pop();
        account(item, -1);
        return item;
    }
    const Item& front() const noexcept { return items_.front(); }

private:
    void account(const Item& item, int sign) noexcept {
        const auto samples = static_cast<std::int64_t>(item.sampleCount());
        queuedSamples_ += static_cast<std::size_t>(sign * samples);
        queuedBytes_ += static_cast<std::size_t>(sign * samples * static_cast<std::int64_t>(sampleSize(item.sampleType())));
        if (item.arrivalNs() > 0) {
            if (arrivals_ == 0) arrivalBase_ = item.arrivalNs();
            arrivalOffsetSum_ += sign * (item.arrivalNs() - arrivalBase_);
            arrivals_ += static_cast<std::size_t>(sign);
        }
    }

    RingBuffer<Item> items_;
    std::size_t queuedSamples_ = 0;
    std::size_t queuedBytes_ = 0;
    // Arrival times are ~1.8e18 ns: summing them would overflow, so offsets from the arrival of
    // the item that made the queue non-empty are summed instead.
    TimeNs arrivalBase_ = 0;
    TimeNs arrivalOffsetSum_ = 0;
    std::size_t arrivals_ = 0;
};

}  // namespace isochron
