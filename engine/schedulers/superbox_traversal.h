// Superbox traversals (Aurora, section 4.1.2): the order in which one output tree's boxes run when
// the tree is scheduled as a unit.
//
// - Min-Cost (MC): post-order, each box once, so every queued item reaches the output with the
//   fewest box calls.
// - Min-Latency (ML): boxes by increasing output cost, each followed by the boxes downstream of it,
//   so the first outputs come out as early as possible.
// - Min-Memory (MM): boxes by decreasing memory reduction rate, each followed by its downstream.
//
// "Followed by its downstream" stops at the first downstream box that has not had its own turn
// yet: that box runs at its turn with everything that has reached it by then. For ML this never
// cuts (downstream boxes always cost less to the output), and it reproduces the paper's MM example.
// Ties keep post-order.
//
// A plan stores each box's turn, not its followers: written out, the followers of ML on a chain
// are n^2/2 entries. They are walked (DownstreamWalk) when a box has run at its turn.
#pragma once

#include <string_view>
#include <vector>

#include "engine/schedulers/output_trees.h"

namespace isochron {

/// The three traversals.
enum class Traversal { MinCost, MinLatency, MinMemory };

/// What a traversal knows about one box. [value type]
struct BoxEstimate {
    double costNs = 0;        ///< processing time per input item
    double selectivity = 1;   ///< items out per item in
    double itemBytes = 1;     ///< size of an item waiting at its input
};

/// One superbox execution: the boxes in the order of their turns (indices into tree.postOrder).
/// A box that ran at its turn is followed by its downstream boxes that already had their turn;
/// a scheduler runs no followers when the box itself did not run: they have nothing new to carry.
/// [value type]
struct SuperboxPlan {
    std::vector<int> turns;    ///< every box once, in turn order
    std::vector<int> turnOf;   ///< turnOf[box]: the box's position in turns
    bool followDownstream = false;  ///< false for Min-Cost: no followers
};

/// The plan of one superbox execution. `estimates[i]` describes tree.postOrder[i].
/// [no side effects] [O(n log n) for a tree of n boxes]
SuperboxPlan superboxTraversal(const OutputTree& tree, Traversal traversal, const std::vector<BoxEstimate>& estimates);

/// Calls `run(k)` for each follower k of `box`'s turn, in post-order. [no allocation once `walk` is warm]
template <class Run>
void forEachFollower(const OutputTree& tree, const SuperboxPlan& plan, int box, DownstreamWalk& walk, Run&& run) {
    if (!plan.followDownstream) return;
    const int turn = plan.turnOf[static_cast<std::size_t>(box)];
    walk.run(tree, box, [&](int k) {
        if (k == box) return true;
        if (plan.turnOf[static_cast<std::size_t>(k)] > turn) return false;  // its own turn is still to come
        run(k);
        return true;
    });
}

/// The plan as the flat sequence of box calls the paper lists (every box and follower). [no side effects]
std::vector<int> boxCalls(const OutputTree& tree, const SuperboxPlan& plan);

/// output_cost(b) = sum over k in D(b) of cost(k) / o_sel(k), o_sel(k) = product of sel over D(k),
/// for every box of the tree at once. [linear when D(b) is a path; else O(sum of |D(b)|) time,
/// linear memory]
std::vector<double> outputCosts(const OutputTree& tree, const std::vector<BoxEstimate>& estimates);
/// mem_rr(b) = tsize(b) * (1 - sel(b)) / cost(b).
double memoryReductionRate(const BoxEstimate& estimate);

}  // namespace isochron
