// The graph seen as Aurora sees it (section 4.1): one tree of boxes per output. Boxes are the
// non-source nodes; a box can belong to several trees when it feeds several outputs.
//
// For each output's tree: its boxes in post-order (every box after all boxes that feed it), and for
// each box the boxes from it down to that output, D(b), which the Min-Latency and QoS-driven
// schedulers use to estimate how long an item at b still has to go.
#pragma once

#include <vector>

#include "engine/runtime/node_context.h"

namespace isochron {

/// One output's tree of boxes. [value type, built once per run]
struct OutputTree {
    NodeContext* output = nullptr;
    std::vector<NodeContext*> postOrder;  ///< feeders before the boxes they feed; the output last
    /// successors[i]: the boxes of this tree that postOrder[i] sends to, as indices into postOrder.
    std::vector<std::vector<int>> successors;
    /// downstream[i]: the boxes on the way from postOrder[i] to the output, itself included, as
    /// indices into postOrder, ascending. Quadratic in a chain's length: only filled on request.
    std::vector<std::vector<int>> downstream;
    /// The box's index in postOrder, or -1 when it is not in this tree. [linear search]
    int indexOf(const NodeContext* box) const;
};

/// Whether findOutputTrees() also lists each box's downstream boxes (D(b)) or only its successors.
enum class TreeDetail { Successors, Downstream };

/// Every output's tree, in node order of the outputs. Sources are not boxes.
std::vector<OutputTree> findOutputTrees(const std::vector<NodeContext*>& nodes, TreeDetail detail = TreeDetail::Downstream);

/// Whether no box belongs to two trees (then trees can run on different threads).
bool treesAreDisjoint(const std::vector<OutputTree>& trees);

}  // namespace isochron
