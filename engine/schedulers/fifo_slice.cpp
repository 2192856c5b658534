#include "engine/schedulers/fifo_slice.h"

#include <chrono>

namespace isochron {
namespace {

std::int64_t monotonicNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

FifoSliceScheduler::FifoSliceScheduler(std::string name, double sliceMicroseconds)
    : name_(std::move(name)), sliceNs_(static_cast<std::int64_t>(sliceMicroseconds * 1000.0)) {}

void FifoSliceScheduler::deliver(NodeContext& target, int port, Item&& item) {
    InputState& in = target.inputs[static_cast<std::size_t>(port)];
    in.queue.push(std::move(item));
    if (!in.listed) {
        in.listed = true;
        ready_.push({&target, port});
    }
}

void FifoSliceScheduler::drain(const std::atomic<bool>& stop) {
    while (!ready_.empty() && !stop.load(std::memory_order_relaxed)) {
        QueueRef next = ready_.pop();
        InputState& in = next.node->inputs[static_cast<std::size_t>(next.port)];
        ItemQueue& queue = in.queue;
        in.listed = false;
        if (sliceNs_ <= 0) {
            invokeQueued(*next.node, next.port);
        } else {
            // A turn serves only the items that waited for it: a node that feeds its own input would
            // otherwise spend every slice on the items it fed itself during that slice, sending the
            // nodes after it a slice's worth each turn, more than their own slice can take when they
            // cost more per item (a never-draining loop's sink fell behind without end).
            std::size_t waiting = queue.size();
            const std::int64_t deadline = monotonicNs() + sliceNs_;
            do {
                invokeQueued(*next.node, next.port);
            } while (--waiting > 0 && !queue.empty() && monotonicNs() < deadline && !stop.load(std::memory_order_relaxed));
        }
        checkpoint();
        // Still has items: back of the line (it was just served).
        if (!queue.empty() && !in.listed) {
            in.listed = true;
            ready_.push(next);
        }
    }
}

}  // namespace isochron
