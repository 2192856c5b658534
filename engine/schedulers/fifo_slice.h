// FIFO-Slice (XStream III-C): per-input queues; repeatedly pick the least recently served non-empty
// queue and run its operator on as many of the items waiting when its turn began as fit in a time
// slice (items a node feeds its own input during its turn wait for its next turn). A slice of 0 runs
// one item per turn: that is the plain FIFO scheduler.
#pragma once

#include <cstdint>

#include "engine/runtime/ring_buffer.h"
#include "engine/runtime/node_context.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// `fifo` (slice 0) and `fifo-slice` (slice_us > 0). [engine thread]
class FifoSliceScheduler final : public Scheduler {
public:
    FifoSliceScheduler(std::string name, double sliceMicroseconds);
    std::string_view name() const override { return name_; }
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;

private:
    struct QueueRef {
        NodeContext* node = nullptr;
        int port = 0;
    };
    std::string name_;
    std::int64_t sliceNs_;
    RingBuffer<QueueRef> ready_;  // non-empty input queues, least recently served first
};

}  // namespace isochron
