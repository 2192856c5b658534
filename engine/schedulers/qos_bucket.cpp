#include "engine/schedulers/qos_bucket.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/time/wall_clock.h"

namespace isochron {
namespace {

constexpr TimeNs kPlaceAllAgainNs = 20'000'000;  // waiting boxes are re-bucketed at 50 Hz

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
    const auto count = static_cast<std::size_t>(gradientBuckets_ * slackBuckets_);
    buckets_.resize(count);
    occupied_.assign((count + 63) / 64, 0);
    firstWord_ = occupied_.size();
}

void QosBucketScheduler::prepare(const std::vector<NodeContext*>& nodes) {
    priorities_.prepare(nodes);
    readySince_.assign(nodes.size(), 0);
}

void QosBucketScheduler::place(NodeContext& box, TimeNs now) {
    const BucketIndex b = bucketOf(priorities_.priority(box, now), gradientBuckets_, slackBuckets_,
                                   priorities_.maxUtility(), priorities_.maxSlackMs());
    placeAt(box, static_cast<std::size_t>((gradientBuckets_ - 1 - b.gradient) * slackBuckets_ + b.slack));
}

void QosBucketScheduler::markReady(NodeContext& box, TimeNs now) {
    box.scheduled = true;
    readySince_[static_cast<std::size_t>(box.index)] = stats_.decisions;
    place(box, now);
}

void QosBucketScheduler::placeAt(NodeContext& box, std::size_t rank) {
    buckets_[rank].push(&box);
    occupied_[rank / 64] |= std::uint64_t{1} << (rank % 64);
    firstWord_ = std::min(firstWord_, rank / 64);
    ++waiting_;
}

NodeContext* QosBucketScheduler::takeBest() {
    while (occupied_[firstWord_] == 0) ++firstWord_;
    const std::size_t rank = firstWord_ * 64 + static_cast<std::size_t>(std::countr_zero(occupied_[firstWord_]));
    NodeContext* box = buckets_[rank].pop();
    if (buckets_[rank].empty()) occupied_[rank / 64] &= ~(std::uint64_t{1} << (rank % 64));
    --waiting_;
    return box;
}

void QosBucketScheduler::deliver(NodeContext& target, int port, Item&& item) {
    target.inputs[static_cast<std::size_t>(port)].queue.push(std::move(item));
    if (!target.scheduled) markReady(target, wallClockNs());
}

void QosBucketScheduler::placeAllAgain(TimeNs now) {
    scratch_.clear();
    while (waiting_ > 0) scratch_.push_back(takeBest());
    const std::uint64_t bound = kMaxDecisionsPassedOverPerReadyBox * scratch_.size();
    for (NodeContext* box : scratch_) {
        if (stats_.decisions - readySince_[static_cast<std::size_t>(box->index)] > bound) placeAt(*box, 0);
        else place(*box, now);
    }
    placedAllNs_ = now;
}

void QosBucketScheduler::drain(const std::atomic<bool>& stop) {
    while (waiting_ > 0 && !stop.load(std::memory_order_relaxed)) {
        const TimeNs now = wallClockNs();
        priorities_.refreshCostsIfDue(now);
        if (now - placedAllNs_ > kPlaceAllAgainNs) placeAllAgain(now);
        NodeContext* box = takeBest();
        box->scheduled = false;
        ++stats_.decisions;
        ++stats_.boxCalls;
        runTrain(*box, train_);
        if (!box->scheduled && box->queuedItems() > 0) markReady(*box, wallClockNs());
    }
}

}  // namespace isochron
