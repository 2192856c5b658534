#include "engine/schedulers/depth_first.h"

namespace isochron {

void DepthFirstScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    for (NodeContext* node : nodes) node->directDelivery = !node->inCycle;
}

void DepthFirstScheduler::beginRound() {
    setDirectCallFloor(stackAddress() - kStackBudgetBytes);
}

void DepthFirstScheduler::deliver(NodeContext& target, int port, Item&& item) {
    const bool stackLeft = directCallAllowed();
    if (target.directDelivery && stackLeft) [[likely]] return Operator::deliverTo(target, port, std::move(item));
    // In a cycle, or items are queued (keep each edge in order), or the stack is nearly used up.
    InputState& in = target.inputs[static_cast<std::size_t>(port)];
    if (in.queue.empty() && !target.onStack && stackLeft) return invoke(target, port, std::move(item));
    enqueue(target, port, std::move(item));
}

void DepthFirstScheduler::enqueue(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    target.directDelivery = false;
    if (!target.scheduled) {
        target.scheduled = true;
        pending_.push(&target);
    }
}

void DepthFirstScheduler::drain(const std::atomic<bool>& stop) {
    while (!pending_.empty() && !stop.load(std::memory_order_relaxed)) {
        NodeContext& node = *pending_.pop();
        node.scheduled = false;
        for (int port = 0; port < static_cast<int>(node.inputs.size()); ++port) {
            ItemQueue& queue = node.inputs[static_cast<std::size_t>(port)].queue;
            while (!queue.empty() && !stop.load(std::memory_order_relaxed)) {
                invokeQueued(node, port);
                checkpoint();
            }
        }
        if (!node.inCycle && node.queuedItems() == 0) node.directDelivery = true;
    }
}

}  // namespace isochron
