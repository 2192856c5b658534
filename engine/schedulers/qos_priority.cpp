#include "engine/schedulers/qos_priority.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isochron {

void QosPriorities::prepare(const std::vector<NodeContext*>& nodes) {
    routes_.assign(nodes.size(), {});
    for (const OutputTree& tree : findOutputTrees(nodes)) {
        const QosGraph* qos = &tree.output->sink->qos;
        for (std::size_t i = 0; i < tree.postOrder.size(); ++i) {
            std::vector<NodeContext*> downstream;
            for (int k : tree.downstream[i]) downstream.push_back(tree.postOrder[static_cast<std::size_t>(k)]);
            routes_[static_cast<std::size_t>(tree.postOrder[i]->index)].push_back({qos, std::move(downstream), 0.0});
        }
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
    for (auto& routes : routes_) {
        for (Route& route : routes) {
            double ns = 0;
            for (const NodeContext* box : route.downstream) ns += box->costEstimateNs;
            route.costMs = ns / 1e6;
        }
    }
}

void QosPriorities::refreshCostsIfDue(TimeNs nowNs) {
    if (nowNs - costsRefreshedNs_ < kCostRefreshNs) return;
    refreshCosts();
    costsRefreshedNs_ = nowNs;
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

BoxPriority QosPriorities::priority(const NodeContext& box, TimeNs nowNs) const {
    // Mean age of the queued items that carry an arrival time, weighted by queue length.
    double weightedArrival = 0;
    std::size_t count = 0;
    for (const auto& in : box.inputs) {
        const TimeNs mean = in.queue.meanArrivalNs();
        if (mean == 0) continue;
        weightedArrival += static_cast<double>(nowNs - mean) * static_cast<double>(in.queue.size());
        count += in.queue.size();
    }
    const double latencyMs = count ? weightedArrival / static_cast<double>(count) / 1e6 : 0.0;
    return priorityAt(box, latencyMs);
}

}  // namespace isochron
