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
        // Drain what the input queues hold now. Items that loop back meanwhile re-list the node
        // behind the others: a loop that never drains must not starve its other successors (their
        // queues would grow without bound) nor delay a stop request.
        runTrain(node, 0);
        if (node.scheduled && node.queuedItems() == 0) node.scheduled = false;
        NodeContext* successor = firstSuccessor_;
        if (successor != nullptr && successor != &node && successor->scheduled && successor->queuedItems() > 0) {
            next = successor;
        } else {
            next = nextPending();
        }
    }
}

}  // namespace isochron
