#include "engine/schedulers/qos.h"

#include "engine/time/wall_clock.h"

namespace isochron {

QosScheduler::QosScheduler(std::size_t train) : train_(train) {}

void QosScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    priorities_.prepare(nodes);
    readySince_.assign(nodes.size(), 0);
}

void QosScheduler::markReady(NodeContext& box) {
    box.scheduled = true;
    ready_.push_back(&box);
    readySince_[static_cast<std::size_t>(box.index)] = stats_.decisions;
}

void QosScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) markReady(target);
}

void QosScheduler::drain(const std::atomic<bool>& stop) {
    while (!ready_.empty() && !stop.load(std::memory_order_relaxed)) {
        const TimeNs now = wallClockNs();
        priorities_.refreshCostsIfDue(now);
        std::size_t best = 0, oldest = 0;
        BoxPriority bestPriority = priorities_.priority(*ready_[0], now);
        auto since = [&](std::size_t i) { return readySince_[static_cast<std::size_t>(ready_[i]->index)]; };
        for (std::size_t i = 1; i < ready_.size(); ++i) {
            const BoxPriority p = priorities_.priority(*ready_[i], now);
            if (p > bestPriority) {
                best = i;
                bestPriority = p;
            }
            if (since(i) < since(oldest)) oldest = i;
        }
        if (stats_.decisions - since(oldest) > kMaxDecisionsPassedOverPerReadyBox * ready_.size()) best = oldest;
        NodeContext* box = ready_[best];
        ready_[best] = ready_.back();
        ready_.pop_back();
        box->scheduled = false;
        stats_.boxesExamined += ready_.size();
        ++stats_.decisions;
        ++stats_.boxCalls;
        runTrain(*box, train_);
        if (!box->scheduled && box->queuedItems() > 0) markReady(*box);
    }
}

}  // namespace isochron
