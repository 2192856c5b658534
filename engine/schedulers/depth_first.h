// DF, depth first (XStream III-C): an emitted item runs its target immediately, so an item travels
// the whole plan by reference before the next one starts, with no queueing. An item for an operator
// already executing (an edge that closes a cycle), or for an input that still has queued items (to
// keep each edge in order), or when the stack is nearly used up, is queued; once the traversal
// returns, the least recently processed operator with queued items runs next.
//
// Cost per hop is what EngineBench measures, so the direct path is lean: operators outside cycles
// (known from the graph's strongly connected components) are called without any bookkeeping, as a
// tail call, and the recursion is bounded by the stack address instead of a depth counter. For a
// single-target output, NodeContext::route takes that direct path itself (no virtual deliver()).
#pragma once

#include "engine/runtime/ring_buffer.h"
#include "engine/runtime/node_context.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// `df`. [engine thread]
class DepthFirstScheduler final : public Scheduler {
public:
    /// Stack the direct calls may use below the frame that starts a round; deeper deliveries queue.
    static constexpr std::size_t kStackBudgetBytes = 2u << 20;

    std::string_view name() const override { return "df"; }
    void prepare(const std::vector<NodeContext*>& nodes) override;
    void beginRound() override;
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;

private:
    void enqueue(NodeContext& target, int port, Item&& item);

    RingBuffer<NodeContext*> pending_;
};

}  // namespace isochron
