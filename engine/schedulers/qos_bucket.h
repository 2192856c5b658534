// Bucketed QoS-driven scheduling (Aurora, section 6.2): the utility (-gradient) range is cut into
// g buckets and the slack range into s; boxes that fall into the same bucket count as equal. When
// the execution queue runs dry, every ready box is placed in its bucket and the buckets are read
// out best first (highest utility, then least slack) into a new execution queue, which then runs
// without further decisions. Fewer buckets: less precise order, fewer and cheaper decisions.
#pragma once

#include <vector>

#include "engine/runtime/ring_buffer.h"
#include "engine/schedulers/qos_priority.h"
#include "engine/schedulers/scheduler.h"

namespace isochron {

/// Bucket of a p-tuple among g x s, as (gradient bucket, slack bucket); gradient bucket g-1 holds
/// the steepest loss, slack bucket 0 the least slack (infinite slack goes to s-1). [pure]
struct BucketIndex {
    int gradient = 0;
    int slack = 0;
};
BucketIndex bucketOf(const BoxPriority& priority, int gradientBuckets, int slackBuckets, double maxUtility, double maxSlackMs);

/// `qos-bucket`. [engine thread]
class QosBucketScheduler final : public Scheduler {
public:
    QosBucketScheduler(int gradientBuckets, int slackBuckets, std::size_t train);
    std::string_view name() const override { return "qos-bucket"; }
    void prepare(const std::vector<NodeContext*>& nodes) override;
    void deliver(NodeContext& target, int port, Item&& item) override;
    void drain(const std::atomic<bool>& stop) override;
    bool usesEstimates() const override { return true; }

private:
    void refill();

    int gradientBuckets_;
    int slackBuckets_;
    std::size_t train_;
    QosPriorities priorities_;
    std::vector<NodeContext*> ready_;                 // waiting for the next bucket assignment
    /// Bucket lists by rank: rank 0 is the steepest gradient with the least slack, so serving
    /// ranks in increasing order is serving priorities in decreasing order. Reused.
    std::vector<std::vector<NodeContext*>> buckets_;
    std::vector<std::uint64_t> occupied_;  // bit r: buckets_[r] is not empty
    RingBuffer<NodeContext*> executionQueue_;
};

}  // namespace isochron
