#include "engine/schedulers/depth_first.h"

namespace isochron {

void DepthFirstScheduler::deliver(NodeContext& target, int port, Item&& item) {
    InputState& in = target.inputs[static_cast<std::size_t>(port)];
    if (!target.onStack && in.queue.empty() && depth_ < kMaxDepth) {
        ++depth_;
        invoke(target, port, std::move(item));
        --depth_;
        return;
    }
    in.queue.push(std::move(item));
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
                ++depth_;
                invokeQueued(node, port);
                --depth_;
            }
        }
    }
}

}  // namespace isochron
