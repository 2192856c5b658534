#include "engine/schedulers/run_to_completion.h"

namespace isochron {

void RunToCompletionScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) {
        target.scheduled = true;
        pending_.push(&target);
    }
    if (firstSuccessor_ == nullptr) firstSuccessor_ = &target;
}

NodeContext* RunToCompletionScheduler::nextPending() {
    // Entries of nodes that already ran by the successor shortcut are stale: skip them.
    while (!pending_.empty()) {
        NodeContext* node = pending_.pop();
        if (node->scheduled) return node;
    }
    return nullptr;
}

void RunToCompletionScheduler::drain(const std::atomic<bool>& stop) {
    NodeContext* next = nextPending();
    while (next != nullptr && !stop.load(std::memory_order_relaxed)) {
        NodeContext& node = *next;
        node.scheduled = false;
        firstSuccessor_ = nullptr;
        // Drain every input queue, including items that arrive meanwhile through a loop.
        for (bool any = true; any;) {
            any = false;
            for (int port = 0; port < static_cast<int>(node.inputs.size()); ++port) {
                ItemQueue& queue = node.inputs[static_cast<std::size_t>(port)].queue;
                while (!queue.empty()) {
                    invokeQueued(node, port);
                    checkpoint();
                    any = true;
                }
            }
        }
        // Items that looped back while draining re-listed this node; it has nothing left now.
        node.scheduled = false;
        NodeContext* successor = firstSuccessor_;
        if (successor != nullptr && successor->scheduled && successor->queuedItems() > 0) {
            next = successor;
        } else {
            next = nextPending();
        }
    }
}

}  // namespace isochron
