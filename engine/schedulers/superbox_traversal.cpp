#include "engine/schedulers/superbox_traversal.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace isochron {

namespace {

// What box k adds to the output cost of every box upstream of it.
double perOutputCost(const BoxEstimate& estimate, double outputSelectivity) {
    // A box that (so far) passes nothing on costs nothing per output: it never produces one.
    return outputSelectivity > 0 ? estimate.costNs / outputSelectivity : std::numeric_limits<double>::infinity();
}

}  // namespace

std::vector<double> outputCosts(const OutputTree& tree, const std::vector<BoxEstimate>& estimates) {
    const std::size_t boxes = tree.postOrder.size();
    std::vector<double> outputSelectivity(boxes, 1.0);
    std::vector<double> costs(boxes, 0.0);
    if (tree.downstreamIsPath) {
        // D(b) is b followed by D(successor): from the output back, each box extends its successor's
        // product and sum.
        for (std::size_t b = boxes; b-- > 0;) {
            const auto& next = tree.successors[b];
            const double downstreamSelectivity = next.empty() ? 1.0 : outputSelectivity[static_cast<std::size_t>(next.front())];
            outputSelectivity[b] = estimates[b].selectivity * downstreamSelectivity;
            costs[b] = perOutputCost(estimates[b], outputSelectivity[b]) + (next.empty() ? 0.0 : costs[static_cast<std::size_t>(next.front())]);
        }
        return costs;
    }
    // Branches that meet again (or a loop): D(b) is a set, summed box by box.
    DownstreamWalk walk;
    for (std::size_t k = 0; k < boxes; ++k) {
        walk.run(tree, static_cast<int>(k), [&](int d) {
            outputSelectivity[k] *= estimates[static_cast<std::size_t>(d)].selectivity;
            return true;
        });
    }
    for (std::size_t b = 0; b < boxes; ++b) {
        walk.run(tree, static_cast<int>(b), [&](int k) {
            costs[b] += perOutputCost(estimates[static_cast<std::size_t>(k)], outputSelectivity[static_cast<std::size_t>(k)]);
            return true;
        });
    }
    return costs;
}

double memoryReductionRate(const BoxEstimate& estimate) {
    const double reduction = estimate.itemBytes * (1 - estimate.selectivity);
    if (estimate.costNs <= 0) return reduction > 0 ? std::numeric_limits<double>::infinity() : reduction;
    return reduction / estimate.costNs;
}

SuperboxPlan superboxTraversal(const OutputTree& tree, Traversal traversal, const std::vector<BoxEstimate>& estimates) {
    const std::size_t boxes = tree.postOrder.size();
    SuperboxPlan plan;
    plan.turns.resize(boxes);
    std::iota(plan.turns.begin(), plan.turns.end(), 0);
    plan.followDownstream = traversal != Traversal::MinCost;
    if (plan.followDownstream) {
        std::vector<double> key = traversal == Traversal::MinLatency ? outputCosts(tree, estimates) : std::vector<double>(boxes);
        if (traversal == Traversal::MinMemory) {
            for (std::size_t b = 0; b < boxes; ++b) key[b] = -memoryReductionRate(estimates[b]);
        }
        std::stable_sort(plan.turns.begin(), plan.turns.end(),
                         [&](int a, int b) { return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)]; });
    }
    plan.turnOf.resize(boxes);
    for (std::size_t turn = 0; turn < boxes; ++turn) plan.turnOf[static_cast<std::size_t>(plan.turns[turn])] = static_cast<int>(turn);
    return plan;
}

std::vector<int> boxCalls(const OutputTree& tree, const SuperboxPlan& plan) {
    std::vector<int> calls;
    DownstreamWalk walk;
    for (int box : plan.turns) {
        calls.push_back(box);
        forEachFollower(tree, plan, box, walk, [&](int k) { calls.push_back(k); });
    }
    return calls;
}

}  // namespace isochron
