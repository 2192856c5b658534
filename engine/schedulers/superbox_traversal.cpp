#include "engine/schedulers/superbox_traversal.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace isochron {

std::vector<double> outputCosts(const OutputTree& tree, const std::vector<BoxEstimate>& estimates) {
    const std::size_t boxes = tree.postOrder.size();
    std::vector<double> outputSelectivity(boxes, 1.0);
    for (std::size_t k = 0; k < boxes; ++k) {
        for (int d : tree.downstream[k]) outputSelectivity[k] *= estimates[static_cast<std::size_t>(d)].selectivity;
    }
    std::vector<double> costs(boxes, 0.0);
    for (std::size_t b = 0; b < boxes; ++b) {
        for (int k : tree.downstream[b]) {
            const double selectivity = outputSelectivity[static_cast<std::size_t>(k)];
            // A box that (so far) passes nothing on costs nothing per output: it never produces one.
            costs[b] += selectivity > 0 ? estimates[static_cast<std::size_t>(k)].costNs / selectivity
                                        : std::numeric_limits<double>::infinity();
        }
    }
    return costs;
}

double memoryReductionRate(const BoxEstimate& estimate) {
    const double reduction = estimate.itemBytes * (1 - estimate.selectivity);
    if (estimate.costNs <= 0) return reduction > 0 ? std::numeric_limits<double>::infinity() : reduction;
    return reduction / estimate.costNs;
}

std::vector<SuperboxTurn> superboxTraversal(const OutputTree& tree, Traversal traversal, const std::vector<BoxEstimate>& estimates) {
    const std::size_t boxes = tree.postOrder.size();
    std::vector<int> order(boxes);
    std::iota(order.begin(), order.end(), 0);
    std::vector<SuperboxTurn> turns;
    if (traversal == Traversal::MinCost) {
        for (int box : order) turns.push_back({box, {}});
        return turns;
    }

    std::vector<double> key = traversal == Traversal::MinLatency ? outputCosts(tree, estimates) : std::vector<double>(boxes);
    if (traversal == Traversal::MinMemory) {
        for (std::size_t b = 0; b < boxes; ++b) key[b] = -memoryReductionRate(estimates[b]);
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)]; });

    std::vector<bool> hadTurn(boxes, false);
    for (int box : order) {
        hadTurn[static_cast<std::size_t>(box)] = true;
        SuperboxTurn turn{box, {}};
        for (int k : tree.downstream[static_cast<std::size_t>(box)]) {
            if (k == box) continue;
            if (!hadTurn[static_cast<std::size_t>(k)]) break;
            turn.followers.push_back(k);
        }
        turns.push_back(std::move(turn));
    }
    return turns;
}

std::vector<int> boxCalls(const std::vector<SuperboxTurn>& turns) {
    std::vector<int> calls;
    for (const SuperboxTurn& turn : turns) {
        calls.push_back(turn.box);
        calls.insert(calls.end(), turn.followers.begin(), turn.followers.end());
    }
    return calls;
}

}  // namespace isochron
