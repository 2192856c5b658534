// DF, depth first (XStream III-C): an emitted item runs its target immediately, so an item travels
// the whole plan by reference before the next one starts, with no queueing. An item for an operator
// already executing (an edge that closes a cycle), or for an input that still has queued items (to
// keep each edge in order), or beyond the recursion limit, is queued; once the traversal returns,
// the least recently processed operator with queued items runs next.
#pragma once

#include "engine/runtime/ring_buffer.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// `df`. [engine thread]
class DepthFirstScheduler final : public Scheduler {
public:
    /// Deepest direct call chain before deliveries are queued instead (bounds the stack).
    static constexpr int kMaxDepth = 4096;

    std::string_view name() const override { return "df"; }
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;

private:
    RingBuffer<NodeContext*> pending_;
    int depth_ = 0;
};

}  // namespace isochron
