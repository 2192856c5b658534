#include "engine/schedulers/output_trees.h"

#include <algorithm>
#include <set>

namespace isochron {

int OutputTree::indexOf(const NodeContext* box) const {
    auto it = std::find(postOrder.begin(), postOrder.end(), box);
    return it == postOrder.end() ? -1 : static_cast<int>(it - postOrder.begin());
}

OutputTree makeOutputTree(NodeContext* output, std::vector<NodeContext*> postOrder, std::vector<std::vector<int>> successors) {
    OutputTree tree;
    tree.output = output;
    tree.postOrder = std::move(postOrder);
    tree.successors = std::move(successors);
    for (std::size_t i = 0; i < tree.successors.size(); ++i) {
        const auto& next = tree.successors[i];
        if (next.size() > 1) tree.downstreamIsPath = false;
        for (int k : next) {
            if (k <= static_cast<int>(i)) tree.flowsForward = false;
        }
    }
    if (!tree.flowsForward) tree.downstreamIsPath = false;
    return tree;
}

std::vector<OutputTree> findOutputTrees(const std::vector<NodeContext*>& nodes) {
    // Who feeds whom: for each node, its feeders ordered by the input port they feed (so a box's
    // children are visited port by port), each feeder once.
    std::vector<std::vector<std::pair<int, NodeContext*>>> feedersByPort(nodes.size());
    for (NodeContext* node : nodes) {
        for (const auto& out : node->outputs) {
            for (const Target& t : out.targets) feedersByPort[static_cast<std::size_t>(t.node->index)].push_back({t.port, node});
        }
    }
    std::vector<std::vector<NodeContext*>> feeders(nodes.size());
    std::vector<int> listedFor(nodes.size(), -1);  // by feeder: the node whose list already holds it
    for (NodeContext* node : nodes) {
        auto& ordered = feedersByPort[static_cast<std::size_t>(node->index)];
        std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        auto& list = feeders[static_cast<std::size_t>(node->index)];
        for (const auto& [port, feeder] : ordered) {
            int& listed = listedFor[static_cast<std::size_t>(feeder->index)];
            if (listed == node->index) continue;
            listed = node->index;
            list.push_back(feeder);
        }
        ordered = {};
    }
    std::vector<OutputTree> trees;
    std::vector<int> position(nodes.size(), -1);  // index of a node in the current tree's postOrder
    // visitedBy[n]: the ordinal of the last tree that reached node n (one array for every tree: a
    // fresh one per output made 20 000 outputs cost 20 000 x 20 000).
    std::vector<int> visitedBy(nodes.size(), -1);
    int ordinal = 0;
    std::vector<std::pair<NodeContext*, std::size_t>> stack;  // box, next feeder to visit
    for (NodeContext* output : nodes) {
        if (!output->isSink()) continue;
        ++ordinal;
        std::vector<NodeContext*> postOrder;
        // Post-order by an explicit stack (a long chain must not become the call stack): a box is
        // listed once all of its feeders are.
        visitedBy[static_cast<std::size_t>(output->index)] = ordinal;
        stack.push_back({output, 0});
        while (!stack.empty()) {
            auto& [box, next] = stack.back();
            const auto& boxFeeders = feeders[static_cast<std::size_t>(box->index)];
            if (next < boxFeeders.size()) {
                NodeContext* feeder = boxFeeders[next++];
                int& visited = visitedBy[static_cast<std::size_t>(feeder->index)];
                if (feeder->isSource() || visited == ordinal) continue;
                visited = ordinal;
                stack.push_back({feeder, 0});
                continue;
            }
            postOrder.push_back(box);
            stack.pop_back();
        }
        for (std::size_t i = 0; i < postOrder.size(); ++i) position[static_cast<std::size_t>(postOrder[i]->index)] = static_cast<int>(i);
        std::vector<std::vector<int>> successors;
        successors.reserve(postOrder.size());
        for (const NodeContext* box : postOrder) {
            std::vector<int> next;
            for (const auto& out : box->outputs) {
                for (const Target& t : out.targets) {
                    const int at = position[static_cast<std::size_t>(t.node->index)];
                    if (at >= 0 && std::find(next.begin(), next.end(), at) == next.end()) next.push_back(at);
                }
            }
            successors.push_back(std::move(next));
        }
        for (const NodeContext* box : postOrder) position[static_cast<std::size_t>(box->index)] = -1;
        trees.push_back(makeOutputTree(output, std::move(postOrder), std::move(successors)));
    }
    return trees;
}

bool treesAreDisjoint(const std::vector<OutputTree>& trees) {
    std::set<const NodeContext*> seen;
    for (const auto& tree : trees) {
        for (const NodeContext* box : tree.postOrder) {
            if (!seen.insert(box).second) return false;
        }
    }
    return true;
}

void DownstreamWalk::begin(std::size_t boxes) {
    if (reachedIn_.size() != boxes) reachedIn_.assign(boxes, 0);
    if (++walk_ == 0) {  // wrapped: old marks could match again
        std::fill(reachedIn_.begin(), reachedIn_.end(), 0);
        walk_ = 1;
    }
}

bool DownstreamWalk::reach(int box) {
    std::uint32_t& reached = reachedIn_[static_cast<std::size_t>(box)];
    if (reached == walk_) return false;
    reached = walk_;
    return true;
}

void DownstreamWalk::collectAll(const OutputTree& tree, int box) {
    found_.clear();
    frontier_.assign(1, box);
    reach(box);
    while (!frontier_.empty()) {
        const int k = frontier_.back();
        frontier_.pop_back();
        found_.push_back(k);
        for (int next : tree.successors[static_cast<std::size_t>(k)]) {
            if (reach(next)) frontier_.push_back(next);
        }
    }
    std::sort(found_.begin(), found_.end());
}

}  // namespace isochron
