// Bucketed QoS-driven scheduling (Aurora, section 6.2): the utility (-gradient) range is cut into
// g buckets and the slack range into s; boxes that fall into the same bucket count as equal. The
// buckets are a calendar queue: a box is placed in its bucket once, when it becomes ready (one
// priority evaluation), and the best occupied bucket (highest utility, then least slack) gives the
// next box, first come first served within a bucket. Every 20 ms all waiting boxes are placed
// again, since their items have aged. Fewer buckets: a less precise order; either way far fewer
// priority evaluations than `qos`, which compares every ready box at every decision.
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
    /// Put a ready box into the bucket of its priority now. [O(1)]
    void place(NodeContext& box, TimeNs now);
    /// Put a ready box into the bucket of rank `rank`. [O(1)]
    void placeAt(NodeContext& box, std::size_t rank);
    /// `box` is ready from this decision on: placed by its priority.
    void markReady(NodeContext& box, TimeNs now);
    /// The first box of the best occupied bucket (there must be one). [O(occupied words skipped)]
    NodeContext* takeBest();
    /// Take every waiting box out and place it again (its items aged, costs moved); a box passed
    /// over for too many decisions (see kMaxDecisionsPassedOverPerReadyBox) goes first. [O(waiting)]
    void placeAllAgain(TimeNs now);

    int gradientBuckets_;
    int slackBuckets_;
    std::size_t train_;
    QosPriorities priorities_;
    /// Bucket queues by rank: rank 0 is the steepest gradient with the least slack, so serving
    /// ranks in increasing order is serving priorities in decreasing order.
    std::vector<RingBuffer<NodeContext*>> buckets_;
    std::vector<std::uint64_t> occupied_;  // bit r: buckets_[r] is not empty
    std::size_t firstWord_ = 0;            // no occupied bit in the words before it
    std::size_t waiting_ = 0;              // boxes in the buckets
    std::vector<NodeContext*> scratch_;    // placeAllAgain's, reused
    std::vector<std::uint64_t> readySince_;  // by node index: the decision count when it became ready
    TimeNs placedAllNs_ = 0;
};

}  // namespace isochron
