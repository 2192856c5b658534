#include "engine/schedulers/round_robin.h"

#include <cmath>

namespace isochron {

RoundRobinScheduler::RoundRobinScheduler(std::size_t train, double trainFraction)
    : train_(train), trainFraction_(trainFraction) {}

void RoundRobinScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) {
        target.scheduled = true;
        ready_.push(&target);
    }
}

std::size_t RoundRobinScheduler::trainFor(const NodeContext& box) const {
    if (trainFraction_ <= 0) return train_;
    const double share = std::ceil(trainFraction_ * static_cast<double>(box.queuedItems()));
    return std::max<std::size_t>(1, static_cast<std::size_t>(share));
}

void RoundRobinScheduler::drain(const std::atomic<bool>& stop) {
    while (!ready_.empty() && !stop.load(std::memory_order_relaxed)) {
        NodeContext* box = ready_.pop();
        box->scheduled = false;
        runTrain(*box, trainFor(*box));
        ++stats_.decisions;
        ++stats_.boxCalls;
        // Items left (a partial train, or ones the box sent itself): back of the line.
        if (!box->scheduled && box->queuedItems() > 0) {
            box->scheduled = true;
            ready_.push(box);
        }
    }
}

}  // namespace isochron
