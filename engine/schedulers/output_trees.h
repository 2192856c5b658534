// The graph seen as Aurora sees it (section 4.1): one tree of boxes per output. Boxes are the
// non-source nodes; a box can belong to several trees when it feeds several outputs.
//
// For each output's tree: its boxes in post-order (every box after all boxes that feed it) and each
// box's successors in the tree. The boxes from a box b down to the output, D(b), which the
// Min-Latency and Min-Memory superboxes and the QoS-driven schedulers use, are not stored: that is
// n^2/2 entries on a chain of n boxes (1.8 GB for 30 000). DownstreamWalk visits D(b) in post-order
// when asked, and stops where its caller says.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/runtime/node_context.h"

namespace isochron {

/// One output's tree of boxes. [value type, built once per run]
struct OutputTree {
    NodeContext* output = nullptr;
    std::vector<NodeContext*> postOrder;  ///< feeders before the boxes they feed; the output last
    /// successors[i]: the boxes of this tree that postOrder[i] sends to, as indices into postOrder.
    std::vector<std::vector<int>> successors;
    /// Every successor comes later in postOrder (no loop inside the tree).
    bool flowsForward = true;
    /// Also, every box sends to at most one box of the tree: D(b) is the path from b to the output.
    bool downstreamIsPath = true;
    /// The box's index in postOrder, or -1 when it is not in this tree. [linear search]
    int indexOf(const NodeContext* box) const;
};

/// A tree from its boxes and successors, with its shape (flowsForward, downstreamIsPath) noted.
OutputTree makeOutputTree(NodeContext* output, std::vector<NodeContext*> postOrder, std::vector<std::vector<int>> successors);

/// Every output's tree, in node order of the outputs. Sources are not boxes. [linear in the sum of
/// the trees' sizes and the edges]
std::vector<OutputTree> findOutputTrees(const std::vector<NodeContext*>& nodes);

/// Whether no box belongs to two trees (then trees can run on different threads).
bool treesAreDisjoint(const std::vector<OutputTree>& trees);

/// Visits D(b), the boxes from b to its tree's output, in post-order (b first), until the visitor
/// returns false. Keeps its scratch between walks, so a warmed-up walk allocates nothing. Costs
/// O(k log k) for k boxes visited in a tree that flows forward; a tree with a loop inside collects
/// all of D(b) first. [one thread at a time]
class DownstreamWalk {
public:
    /// `visit(int box)` returns whether to go on.
    template <class Visit>
    void run(const OutputTree& tree, int box, Visit&& visit);

private:
    /// Starts a walk: every box of the tree unmarked. [no allocation once sized]
    void begin(std::size_t boxes);
    /// Marks `box` reached; false if it already was.
    bool reach(int box);
    /// D(box) of a tree with a loop inside, in post-order, into found_.
    void collectAll(const OutputTree& tree, int box);

    std::vector<std::uint32_t> reachedIn_;  // by box: the walk that reached it
    std::uint32_t walk_ = 0;
    std::vector<int> frontier_;  // reached, not yet visited (a min-heap when the tree flows forward)
    std::vector<int> found_;
};

template <class Visit>
void DownstreamWalk::run(const OutputTree& tree, int box, Visit&& visit) {
    begin(tree.postOrder.size());
    if (!tree.flowsForward) {
        collectAll(tree, box);
        for (int k : found_) {
            if (!visit(k)) return;
        }
        return;
    }
    // Successors come later in post-order, so the lowest index reached and not yet visited is
    // the next box of D(b) in post-order: every box before it in D(b) was reached through boxes
    // with still lower indices.
    auto later = [](int a, int b) { return a > b; };
    frontier_.clear();
    reach(box);
    frontier_.push_back(box);
    while (!frontier_.empty()) {
        std::pop_heap(frontier_.begin(), frontier_.end(), later);
        const int k = frontier_.back();
        frontier_.pop_back();
        if (!visit(k)) return;
        for (int next : tree.successors[static_cast<std::size_t>(k)]) {
            if (!reach(next)) continue;
            frontier_.push_back(next);
            std::push_heap(frontier_.begin(), frontier_.end(), later);
        }
    }
}

}  // namespace isochron
