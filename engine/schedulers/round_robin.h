// Round-robin box-at-a-time (Aurora, sections 4.2 and 5.4): boxes with queued input take turns;
// each turn is one box call that runs a *train* of that box's queued items. Longer trains mean fewer
// scheduling decisions per item; under bursty input they stop items from waiting while the items
// in front of them are pushed through the rest of the network.
#pragma once

#include "engine/runtime/node_context.h"
#include "engine/runtime/ring_buffer.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// `rr`. [engine thread]
class RoundRobinScheduler final : public Scheduler {
public:
    /// `train`: items per box call (0 = everything queued); `trainFraction` in (0, 1], when set,
    /// overrides it with that share of the box's queue (at least one item).
    RoundRobinScheduler(std::size_t train, double trainFraction);
    std::string_view name() const override { return "rr"; }
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;

private:
    std::size_t trainFor(const NodeContext& box) const;

    std::size_t train_;
    double trainFraction_;
    RingBuffer<NodeContext*> ready_;  // boxes with queued input, in turn order
};

}  // namespace isochron
