// QoS-driven scheduling with exact priorities (Aurora, section 6.1, "slope-slack"): at every
// scheduling point, run the box with queued input whose p-tuple is the best (one box call with a
// train). The ready boxes are kept in heaps by QoS interval (qos_ready_boxes.h), so a decision
// costs O(log n) for n ready boxes, not a priority per ready box, and picks the box a scan would.
#pragma once

#include <vector>

#include "engine/schedulers/qos_priority.h"
#include "engine/schedulers/qos_ready_boxes.h"
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

    QosReadyBoxes ready_;  // boxes with queued input
};

}  // namespace isochron
