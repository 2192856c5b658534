#include "engine/schedulers/qos_priority.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isochron {

void QosPriorities::prepare(const std::vector<NodeContext*>& nodes) {
    routes_.assign(nodes.size(), {});
    trees_.clear();
    for (OutputTree& tree : findOutputTrees(nodes)) {
        const QosGraph* qos = &tree.output->sink->qos;
        Tree kept{std::move(tree.postOrder), std::move(tree.successors), {}};
        for (NodeContext* box : kept.postOrder) {
            auto& routes = routes_[static_cast<std::size_t>(box->index)];
            kept.routeIndex.push_back(routes.size());
            routes.push_back({qos, 0.0});
        }
        trees_.push_back(std::move(kept));
        const auto& points = qos->points();
        for (std::size_t p = 1; p < points.size(); ++p) {
            const double run = points[p].latencyMs - points[p - 1].latencyMs;
            if (run > 0) maxUtility_ = std::max(maxUtility_, -(points[p].utility - points[p - 1].utility) / run);
        }
        maxSlackMs_ = std::max(maxSlackMs_, points.back().latencyMs);
    }
    refreshCosts();
}

void QosPriorities::refreshCosts() {
    std::vector<double> costNs;
    std::vector<char> seen;
    std::vector<int> pending;
    for (const Tree& tree : trees_) {
        const std::size_t boxes = tree.postOrder.size();
        costNs.assign(boxes, 0.0);
        // Post-order lists a box before the box it feeds, so from the output backwards a box with
        // one successor adds its own cost to its successor's; one that feeds several (or lies on a
        // loop) sums what it reaches, each box once.
        for (std::size_t i = boxes; i-- > 0;) {
            const auto& next = tree.successors[i];
            const double own = tree.postOrder[i]->costEstimateNs;
            if (next.empty()) {
                costNs[i] = own;
            } else if (next.size() == 1 && !tree.postOrder[i]->inCycle) {
                costNs[i] = own + costNs[static_cast<std::size_t>(next.front())];
            } else {
                seen.assign(boxes, 0);
                pending.assign(1, static_cast<int>(i));
                double sum = 0;
                while (!pending.empty()) {
                    const auto k = static_cast<std::size_t>(pending.back());
                    pending.pop_back();
                    if (seen[k]) continue;
                    seen[k] = 1;
                    sum += tree.postOrder[k]->costEstimateNs;
                    pending.insert(pending.end(), tree.successors[k].begin(), tree.successors[k].end());
                }
                costNs[i] = sum;
            }
        }
        for (std::size_t i = 0; i < boxes; ++i) {
            routes_[static_cast<std::size_t>(tree.postOrder[i]->index)][tree.routeIndex[i]].costMs = costNs[i] / 1e6;
        }
    }
}

bool QosPriorities::refreshCostsIfDue(TimeNs nowNs) {
    if (nowNs - costsRefreshedNs_ < kCostRefreshNs) return false;
    refreshCosts();
    costsRefreshedNs_ = nowNs;
    return true;
}

BoxPriority QosPriorities::priorityAt(const NodeContext& box, double latencyMs) const {
    BoxPriority p;
    p.slackMs = std::numeric_limits<double>::infinity();
    for (const Route& route : routes_[static_cast<std::size_t>(box.index)]) {
        const double eol = latencyMs + route.costMs;
        p.utility += std::max(0.0, -route.qos->gradient(eol));
        p.slackMs = std::min(p.slackMs, route.qos->slack(eol));
    }
    return p;
}

double QosPriorities::queuedLatencyMs(const NodeContext& box, TimeNs nowNs) const {
    // Mean age of the queued items that carry an arrival time, weighted by queue length.
    double weightedArrival = 0;
    std::size_t count = 0;
    for (const auto& in : box.inputs) {
        const TimeNs mean = in.queue.meanArrivalNs();
        if (mean == 0) continue;
        weightedArrival += static_cast<double>(nowNs - mean) * static_cast<double>(in.queue.size());
        count += in.queue.size();
    }
    return count ? weightedArrival / static_cast<double>(count) / 1e6 : 0.0;
}

BoxPriority QosPriorities::priority(const NodeContext& box, TimeNs nowNs) const {
    return priorityAt(box, queuedLatencyMs(box, nowNs));
}

}  // namespace isochron
