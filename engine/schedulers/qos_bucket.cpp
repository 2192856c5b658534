#include "engine/schedulers/qos_bucket.h"

#include <algorithm>
#include <cmath>

#include "engine/time/wall_clock.h"

namespace isochron {
namespace {

constexpr TimeNs kReplaceAllNs = 20'000'000;  // waiting boxes are re-bucketed (and costs refreshed) at 50 Hz

}  // namespace

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
    buckets_.resize(static_cast<std::size_t>(gradientBuckets_ * slackBuckets_));
    firstNonEmpty_ = buckets_.size();
}

void QosBucketScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    priorities_.prepare(nodes);
}

void QosBucketScheduler::place(NodeContext& box, TimeNs now) {
    const BucketIndex b = bucketOf(priorities_.priority(box, now), gradientBuckets_, slackBuckets_,
                                   priorities_.maxUtility(), priorities_.maxSlackMs());
    const auto index = static_cast<std::size_t>((gradientBuckets_ - 1 - b.gradient) * slackBuckets_ + b.slack);
    buckets_[index].push(&box);
    firstNonEmpty_ = std::min(firstNonEmpty_, index);
    ++waiting_;
}

void QosBucketScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) {
        target.scheduled = true;
        place(target, wallClockNs());
    }
}

void QosBucketScheduler::replaceAll(TimeNs now) {
    priorities_.refreshCosts();
    scratch_.clear();
    for (std::size_t i = firstNonEmpty_; i < buckets_.size(); ++i) {
        while (!buckets_[i].empty()) scratch_.push_back(buckets_[i].pop());
    }
    firstNonEmpty_ = buckets_.size();
    waiting_ = 0;
    for (NodeContext* box : scratch_) place(*box, now);
    placedAllNs_ = now;
}

void QosBucketScheduler::drain(const std::atomic<bool>& stop) {
    while (waiting_ > 0 && !stop.load(std::memory_order_relaxed)) {
        const TimeNs now = wallClockNs();
        if (now - placedAllNs_ > kReplaceAllNs) replaceAll(now);
        while (buckets_[firstNonEmpty_].empty()) ++firstNonEmpty_;
        NodeContext* box = buckets_[firstNonEmpty_].pop();
        --waiting_;
        box->scheduled = false;
        ++stats_.decisions;
        ++stats_.boxCalls;
        runTrain(*box, train_);
        if (!box->scheduled && box->queuedItems() > 0) {
            box->scheduled = true;
            place(*box, wallClockNs());
        }
    }
}

}  // namespace isochron
