#include "engine/schedulers/qos.h"

#include "engine/time/wall_clock.h"

namespace isochron {

QosScheduler::QosScheduler(std::size_t train) : train_(train) {}

void QosScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    priorities_.prepare(nodes);
    ready_.prepare(nodes, priorities_, wallClockNs());
}

void QosScheduler::markReady(NodeContext& box) {
    box.scheduled = true;
    ready_.add(box, stats_.decisions);
}

void QosScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) {
        markReady(target);
    } else {
        ready_.touch(target);  // its queued items' mean age changed
    }
}

void QosScheduler::drain(const std::atomic<bool>& stop) {
    while (!ready_.empty() && !stop.load(std::memory_order_relaxed)) {
        const TimeNs now = wallClockNs();
        if (priorities_.refreshCostsIfDue(now)) ready_.costsChanged();
        NodeContext& box = ready_.takeBest(now, stats_.decisions);
        box.scheduled = false;
        stats_.boxesExamined = ready_.boxesExamined();
        ++stats_.decisions;
        ++stats_.boxCalls;
        runTrain(box, train_);
        if (!box.scheduled && box.queuedItems() > 0) markReady(box);
    }
}

}  // namespace isochron
