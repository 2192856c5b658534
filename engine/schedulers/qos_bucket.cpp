#include "engine/schedulers/qos_bucket.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/time/wall_clock.h"

namespace isochron {

BucketIndex bucketOf(const BoxPriority& priority, int gradientBuckets, int slackBuckets, double maxUtility, double maxSlackMs) {
    auto partition = [](double value, double max, int count) {
        if (!(max > 0) || !std::isfinite(value)) return count - 1;
        return std::clamp(static_cast<int>(value / max * count), 0, count - 1);
    };
    BucketIndex index;
    index.gradient = partition(priority.utility, maxUtility, gradientBuckets);
    index.slack = std::isfinite(priority.slackMs) ? partition(priority.slackMs, maxSlackMs, slackBuckets) : slackBuckets - 1;
    return index;
}

QosBucketScheduler::QosBucketScheduler(int gradientBuckets, int slackBuckets, std::size_t train)
    : gradientBuckets_(std::max(1, gradientBuckets)), slackBuckets_(std::max(1, slackBuckets)), train_(train) {
    const auto count = static_cast<std::size_t>(gradientBuckets_ * slackBuckets_);
    buckets_.resize(count);
    occupied_.assign((count + 63) / 64, 0);
}

void QosBucketScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    priorities_.prepare(nodes);
}

void QosBucketScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) {
        target.scheduled = true;
        ready_.push_back(&target);
    }
}

void QosBucketScheduler::refill() {
    const TimeNs now = wallClockNs();
    priorities_.refreshCostsIfDue(now);
    for (NodeContext* box : ready_) {
        const BucketIndex b = bucketOf(priorities_.priority(*box, now), gradientBuckets_, slackBuckets_,
                                       priorities_.maxUtility(), priorities_.maxSlackMs());
        const auto rank = static_cast<std::size_t>((gradientBuckets_ - 1 - b.gradient) * slackBuckets_ + b.slack);
        buckets_[rank].push_back(box);
        occupied_[rank / 64] |= std::uint64_t{1} << (rank % 64);
    }
    ready_.clear();
    // Only occupied buckets are visited: with few ready boxes a refill costs what they cost.
    for (std::size_t word = 0; word < occupied_.size(); ++word) {
        while (occupied_[word] != 0) {
            const auto bit = static_cast<std::size_t>(std::countr_zero(occupied_[word]));
            occupied_[word] &= occupied_[word] - 1;
            auto& bucket = buckets_[word * 64 + bit];
            for (NodeContext* box : bucket) executionQueue_.push(box);
            bucket.clear();
        }
    }
    ++stats_.decisions;
}

void QosBucketScheduler::drain(const std::atomic<bool>& stop) {
    while (!stop.load(std::memory_order_relaxed)) {
        if (executionQueue_.empty()) {
            if (ready_.empty()) return;
            refill();
        }
        NodeContext* box = executionQueue_.pop();
        box->scheduled = false;
        ++stats_.boxCalls;
        runTrain(*box, train_);
        if (!box->scheduled && box->queuedItems() > 0) {
            box->scheduled = true;
            ready_.push_back(box);
        }
    }
}

}  // namespace isochron
