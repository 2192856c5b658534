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

/// One box's turn in a superbox execution: the box, then the boxes downstream of it that follow it
/// (indices into tree.postOrder). A scheduler runs the followers only when the box itself ran:
/// otherwise they have nothing new to carry. [value type]
struct SuperboxTurn {
    int box = 0;
    std::vector<int> followers;
};

/// The turns of one superbox execution. `estimates[i]` describes tree.postOrder[i]. [no side effects]
std::vector<SuperboxTurn> superboxTraversal(const OutputTree& tree, Traversal traversal, const std::vector<BoxEstimate>& estimates);

/// The turns as the flat sequence of box calls the paper lists (every box and follower). [no side effects]
std::vector<int> boxCalls(const std::vector<SuperboxTurn>& turns);

/// output_cost(b) = sum over k in D(b) of cost(k) / o_sel(k), o_sel(k) = product of sel over D(k),
/// for every box of the tree at once. [O(sum of |D(b)|)]
std::vector<double> outputCosts(const OutputTree& tree, const std::vector<BoxEstimate>& estimates);
/// mem_rr(b) = tsize(b) * (1 - sel(b)) / cost(b).
double memoryReductionRate(const BoxEstimate& estimate);

}  // namespace isochron
