#include "engine/schedulers/qos_ready_boxes.h"

#include <algorithm>
#include <map>

namespace isochron {

bool QosReadyBoxes::GroupOrder::operator()(int a, int b) const {
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    if (byEol && boxes->eolKey_[ia] != boxes->eolKey_[ib]) return boxes->eolKey_[ia] > boxes->eolKey_[ib];
    return boxes->position_[ia] < boxes->position_[ib];
}

bool QosReadyBoxes::OldestOrder::operator()(int a, int b) const {
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    if (boxes->since_[ia] != boxes->since_[ib]) return boxes->since_[ia] < boxes->since_[ib];
    return boxes->position_[ia] < boxes->position_[ib];
}

void QosReadyBoxes::prepare(const std::vector<NodeContext*>& nodes, const QosPriorities& priorities, TimeNs nowNs) {
    priorities_ = &priorities;
    nodes_ = nodes;
    referenceNs_ = nowNs;
    const std::size_t count = nodes.size();
    curveOf_.assign(count, kFeedsNone);
    // Outputs with equal QoS graphs (the default one, typically) share a curve.
    std::map<std::vector<std::pair<double, double>>, int> curveIds;
    for (const NodeContext* node : nodes) {
        const auto& routes = priorities.routesOf(*node);
        if (routes.size() > 1) curveOf_[static_cast<std::size_t>(node->index)] = kFeedsSeveral;
        if (routes.size() != 1) continue;
        std::vector<std::pair<double, double>> points;
        for (const QosPoint& p : routes.front().qos->points()) points.push_back({p.latencyMs, p.utility});
        auto [it, added] = curveIds.try_emplace(std::move(points), static_cast<int>(curvePoints_.size()));
        if (added) {
            std::vector<double> latencies;
            for (const auto& [latencyMs, utility] : it->first) latencies.push_back(latencyMs);
            curvePoints_.push_back(std::move(latencies));
        }
        curveOf_[static_cast<std::size_t>(node->index)] = it->second;
    }
    groups_.clear();
    for (std::size_t curve = 0; curve < curvePoints_.size(); ++curve) {
        curveGroups_.push_back(static_cast<int>(groups_.size()));
        const std::size_t intervals = curvePoints_[curve].size() + 1;
        for (std::size_t interval = 0; interval < intervals; ++interval) {
            // Past the last point, gradient 0 and infinite slack: every box there is equal.
            const bool byEol = interval + 1 < intervals;
            for (const bool aging : {false, true}) {
                groups_.push_back({BoxHeap<GroupOrder>(GroupOrder{this, byEol}, &groupSlot_, &examined_),
                                   static_cast<int>(curve), static_cast<int>(interval), aging});
            }
        }
    }
    groups_.push_back({BoxHeap<GroupOrder>(GroupOrder{this, false}, &groupSlot_, &examined_), -1, 0, false});
    groupsInUse_.reserve(groups_.size());
    position_.assign(count, -1);
    since_.assign(count, 0);
    eolKey_.assign(count, 0);
    placedCostMs_.assign(count, 0);
    group_.assign(count, -1);
    groupSlot_.assign(count, -1);
    oldestSlot_.assign(count, -1);
    touched_.assign(count, 0);
    touchedBoxes_.reserve(count);
    ready_.reserve(count);
    feedingSeveral_.reserve(count);
}

int QosReadyBoxes::groupOf(int curve, int interval, bool aging) const {
    return curveGroups_[static_cast<std::size_t>(curve)] + 2 * interval + (aging ? 1 : 0);
}

void QosReadyBoxes::add(const NodeContext& box, std::uint64_t decision) {
    const int index = box.index;
    position_[static_cast<std::size_t>(index)] = static_cast<int>(ready_.size());
    ready_.push_back(index);
    since_[static_cast<std::size_t>(index)] = decision;
    oldest_.push(index);
    touch(box);
}

void QosReadyBoxes::touch(const NodeContext& box) {
    char& touched = touched_[static_cast<std::size_t>(box.index)];
    if (touched) return;
    touched = 1;
    touchedBoxes_.push_back(box.index);
}

void QosReadyBoxes::place(int box, TimeNs nowNs) {
    const auto at = static_cast<std::size_t>(box);
    const int curve = curveOf_[at];
    if (curve == kFeedsSeveral) {
        group_[at] = kFeedsSeveral;
        groupSlot_[at] = static_cast<int>(feedingSeveral_.size());
        feedingSeveral_.push_back(box);
        return;
    }
    if (curve == kFeedsNone) {
        group_[at] = static_cast<int>(groups_.size()) - 1;
        pushInto(group_[at], box);
        return;
    }
    // The eol the scan would compute now, and where it stands as time goes on: an aging box's eol
    // is (now - reference) + costMs - (its mean arrival - reference).
    const NodeContext& node = *nodes_[at];
    const double costMs = priorities_->routesOf(node).front().costMs;
    placedCostMs_[at] = costMs;
    const double eol = priorities_->queuedLatencyMs(node, nowNs) + costMs;
    double weightedArrival = 0;
    std::size_t count = 0;
    for (const auto& in : node.inputs) {
        const TimeNs mean = in.queue.meanArrivalNs();
        if (mean == 0) continue;
        weightedArrival += static_cast<double>(mean - referenceNs_) * static_cast<double>(in.queue.size());
        count += in.queue.size();
    }
    const bool aging = count > 0;
    eolKey_[at] = aging ? costMs - weightedArrival / static_cast<double>(count) / 1e6 : eol;
    const auto& points = curvePoints_[static_cast<std::size_t>(curve)];
    const auto interval = static_cast<int>(std::upper_bound(points.begin(), points.end(), eol) - points.begin());
    const int group = groupOf(curve, interval, aging);
    group_[at] = group;
    pushInto(group, box);
}

void QosReadyBoxes::pushInto(int group, int box) {
    Group& into = groups_[static_cast<std::size_t>(group)];
    if (into.heap.empty()) {
        into.inUseSlot = static_cast<int>(groupsInUse_.size());
        groupsInUse_.push_back(group);
    }
    into.heap.push(box);
}

void QosReadyBoxes::unplace(int box) {
    const auto at = static_cast<std::size_t>(box);
    if (group_[at] == -1) return;  // added, not placed yet
    if (group_[at] == kFeedsSeveral) {
        const int slot = groupSlot_[at];
        const int last = feedingSeveral_.back();
        feedingSeveral_[static_cast<std::size_t>(slot)] = last;
        groupSlot_[static_cast<std::size_t>(last)] = slot;
        feedingSeveral_.pop_back();
    } else {
        Group& from = groups_[static_cast<std::size_t>(group_[at])];
        from.heap.remove(box);
        if (from.heap.empty()) {
            const int moved = groupsInUse_.back();
            groupsInUse_[static_cast<std::size_t>(from.inUseSlot)] = moved;
            groups_[static_cast<std::size_t>(moved)].inUseSlot = from.inUseSlot;
            groupsInUse_.pop_back();
        }
    }
    group_[at] = -1;
    groupSlot_[at] = -1;
}

void QosReadyBoxes::moveOnAged(Group& group, TimeNs nowNs) {
    if (!group.aging) return;
    const auto& points = curvePoints_[static_cast<std::size_t>(group.curve)];
    if (static_cast<std::size_t>(group.interval) >= points.size()) return;  // past the last point: no end
    const double end = points[static_cast<std::size_t>(group.interval)];
    // Largest eol first; a box lands straight in the interval its eol is in now.
    while (!group.heap.empty()) {
        const int top = group.heap.top();
        const NodeContext& node = *nodes_[static_cast<std::size_t>(top)];
        ++examined_;
        if (priorities_->queuedLatencyMs(node, nowNs) + priorities_->routesOf(node).front().costMs < end) return;
        unplace(top);
        place(top, nowNs);
    }
}

NodeContext& QosReadyBoxes::takeBest(TimeNs nowNs, std::uint64_t decisions) {
    if (costsChanged_) {
        // Only boxes whose cost to their output moved change place (a linear pass every refresh,
        // kCostRefreshNs, not every decision).
        for (int box : ready_) {
            const auto at = static_cast<std::size_t>(box);
            if (group_[at] < 0 || curveOf_[at] < 0) continue;
            if (priorities_->routesOf(*nodes_[at]).front().costMs == placedCostMs_[at]) continue;
            unplace(box);
            place(box, nowNs);
        }
        costsChanged_ = false;
    }
    for (int box : touchedBoxes_) {
        touched_[static_cast<std::size_t>(box)] = 0;
        if (position_[static_cast<std::size_t>(box)] < 0) continue;  // taken since
        unplace(box);
        place(box, nowNs);
    }
    touchedBoxes_.clear();
    // A group that empties gives its place in groupsInUse_ to another, which is looked at next.
    for (std::size_t i = 0; i < groupsInUse_.size();) {
        const int id = groupsInUse_[i];
        moveOnAged(groups_[static_cast<std::size_t>(id)], nowNs);
        if (i < groupsInUse_.size() && groupsInUse_[i] == id) ++i;
    }
    // The best of the candidates; among equal priorities the earliest in the ready list, as a scan
    // that replaces its best only by a strictly better one.
    int best = -1;
    BoxPriority bestPriority;
    auto consider = [&](int box) {
        ++examined_;
        const BoxPriority p = priorities_->priority(*nodes_[static_cast<std::size_t>(box)], nowNs);
        const bool better = best < 0 || p > bestPriority ||
                            (!(bestPriority > p) && position_[static_cast<std::size_t>(box)] < position_[static_cast<std::size_t>(best)]);
        if (!better) return;
        best = box;
        bestPriority = p;
    };
    for (int group : groupsInUse_) consider(groups_[static_cast<std::size_t>(group)].heap.top());
    for (int box : feedingSeveral_) consider(box);
    const int oldest = oldest_.top();
    if (decisions - since_[static_cast<std::size_t>(oldest)] > kMaxDecisionsPassedOverPerReadyBox * ready_.size()) best = oldest;

    unplace(best);
    oldest_.remove(best);
    // Out of the ready list as the scan takes it: the last box moves into its place.
    const int slot = position_[static_cast<std::size_t>(best)];
    const int last = ready_.back();
    ready_[static_cast<std::size_t>(slot)] = last;
    ready_.pop_back();
    position_[static_cast<std::size_t>(best)] = -1;
    if (last != best) {
        position_[static_cast<std::size_t>(last)] = slot;
        oldest_.reorder(last);
        const int group = group_[static_cast<std::size_t>(last)];
        if (group >= 0) groups_[static_cast<std::size_t>(group)].heap.reorder(last);
    }
    return *nodes_[static_cast<std::size_t>(best)];
}

}  // namespace isochron
