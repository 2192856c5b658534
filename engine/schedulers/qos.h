// QoS-driven scheduling with exact priorities (Aurora, section 6.1, "slope-slack"): at every
// scheduling point, compute the p-tuple of each box with queued input and run the best one (one
// box call with a train). Each decision costs time linear in the number of ready boxes.
#pragma once

#include <vector>

#include "engine/schedulers/qos_priority.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// `qos`. [engine thread]
class QosScheduler final : public Scheduler {
public:
    /// `train`: items per box call (0 = everything queued at the box).
    explicit QosScheduler(std::size_t train);
    std::string_view name() const override { return "qos"; }
    void prepare(const std::vector<NodeContext*>& nodes) override;
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;
    bool usesEstimates() const override { return true; }

private:
    std::size_t train_;
    QosPriorities priorities_;
    /// `box` is ready from this decision on.
    void markReady(NodeContext& box);

    std::vector<NodeContext*> ready_;  // boxes with queued input, unordered
    std::vector<std::uint64_t> readySince_;  // by node index: the decision count when it became ready
};

}  // namespace isochron
