// Box priorities for QoS-driven scheduling (Aurora, section 6.1).
//
// For a box b and each output whose tree contains it: eol(b) = latency(b) + cost(D(b)), the
// expected output latency of the items queued at b if they were pushed through now; the output's
// QoS graph at eol gives the utility lost per ms of further delay (-gradient) and the slack (ms to
// the next critical point). priority(b) = (sum of -gradient, -min slack): the steepest loss first,
// then the least slack. latency(b) is the mean age of b's queued items.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/runtime/node_context.h"
#include "engine/schedulers/output_trees.h"

namespace isochron {

/// Bounded waiting for the QoS schedulers: priorities alone can rank a ready box last for ever (a
/// loop that never drains always has less slack than the output after it, which then starves and
/// its queue grows without bound). A box passed over for more than this many decisions per ready
/// box runs next, so priorities still decide everywhere but in a starvation.
inline constexpr std::uint64_t kMaxDecisionsPassedOverPerReadyBox = 16;

/// The p-tuple of one box. [value type]
struct BoxPriority {
    double utility = 0;  ///< utility lost per ms of delay, summed over the box's outputs (>= 0)
    double slackMs = 0;  ///< ms to the nearest critical point over its outputs (may be infinite)
    /// Higher utility first; equal utility: less slack first.
    bool operator>(const BoxPriority& other) const {
        return utility != other.utility ? utility > other.utility : slackMs < other.slackMs;
    }
};

/// Per box: the outputs it feeds and the expected time from it to each. [engine thread]
class QosPriorities {
public:
    /// Built once from the output trees of `nodes`.
    void prepare(const std::vector<NodeContext*>& nodes);
    /// Recompute cost(D(b)) from the nodes' cost estimates: linear in a tree's size where each box
    /// feeds one box of the tree (a box feeding several walks what it reaches).
    void refreshCosts();
    /// refreshCosts() if the last refresh is older than kCostRefreshNs (the estimates themselves
    /// move only a few times a second); whether it did.
    bool refreshCostsIfDue(TimeNs nowNs);
    static constexpr TimeNs kCostRefreshNs = 20'000'000;
    /// Priority of `box` at wall time `nowNs` from its queued items' mean age.
    BoxPriority priority(const NodeContext& box, TimeNs nowNs) const;
    /// Priority of a box whose queued items are `latencyMs` old (tests, and the paper's examples).
    BoxPriority priorityAt(const NodeContext& box, double latencyMs) const;
    /// Mean age in ms of `box`'s queued items that carry an arrival time (0 if none), weighted by
    /// queue length: the latency priority() uses.
    double queuedLatencyMs(const NodeContext& box, TimeNs nowNs) const;
    /// Largest -gradient and largest finite critical latency over all outputs (bucket ranges).
    double maxUtility() const { return maxUtility_; }
    double maxSlackMs() const { return maxSlackMs_; }

    /// One output a box feeds, and the expected time from the box to it.
    struct Route {
        const QosGraph* qos;
        double costMs = 0;  ///< cost(D(b)) in that output's tree
    };
    /// The outputs `box` feeds (none when it leads to no output).
    const std::vector<Route>& routesOf(const NodeContext& box) const { return routes_[static_cast<std::size_t>(box.index)]; }

private:
    /// One output's tree: boxes in post-order and their successors in it (not D(b) itself, which
    /// is quadratic in a chain's length), and where each box's route is.
    struct Tree {
        std::vector<NodeContext*> postOrder;
        std::vector<std::vector<int>> successors;
        std::vector<std::size_t> routeIndex;  // postOrder[i]'s route in routes_[its node index]
    };
    std::vector<Tree> trees_;
    std::vector<std::vector<Route>> routes_;  // by node index
    double maxUtility_ = 0;
    double maxSlackMs_ = 0;
    TimeNs costsRefreshedNs_ = 0;
};

}  // namespace isochron
