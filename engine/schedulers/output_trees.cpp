#include "engine/schedulers/output_trees.h"

#include <algorithm>
#include <set>

namespace isochron {

int OutputTree::indexOf(const NodeContext* box) const {
    auto it = std::find(postOrder.begin(), postOrder.end(), box);
    return it == postOrder.end() ? -1 : static_cast<int>(it - postOrder.begin());
}

std::vector<OutputTree> findOutputTrees(const std::vector<NodeContext*>& nodes, TreeDetail detail) {
    // Who feeds whom: for each node, its feeders in input-port order.
    std::vector<std::vector<NodeContext*>> feeders(nodes.size());
    for (NodeContext* node : nodes) {
        for (const auto& out : node->outputs) {
            for (const Target& t : out.targets) feeders[static_cast<std::size_t>(t.node->index)].push_back(node);
        }
    }
    for (NodeContext* node : nodes) {
        auto& list = feeders[static_cast<std::size_t>(node->index)];
        // Order feeders by the target's input port, so a box's children are visited port by port.
        std::vector<std::pair<int, NodeContext*>> ordered;
        for (NodeContext* feeder : list) {
            for (const auto& out : feeder->outputs) {
                for (const Target& t : out.targets) {
                    if (t.node == node) ordered.push_back({t.port, feeder});
                }
            }
        }
        std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        list.clear();
        for (const auto& [port, feeder] : ordered) {
            if (std::find(list.begin(), list.end(), feeder) == list.end()) list.push_back(feeder);
        }
    }
    std::vector<OutputTree> trees;
    std::vector<int> position(nodes.size(), -1);  // index of a node in the current tree's postOrder
    for (NodeContext* output : nodes) {
        if (!output->isSink()) continue;
        OutputTree tree;
        tree.output = output;
        // Post-order by an explicit stack (a long chain must not become the call stack): a box is
        // listed once all of its feeders are.
        std::vector<char> visited(nodes.size(), 0);
        std::vector<std::pair<NodeContext*, std::size_t>> stack;  // box, next feeder to visit
        visited[static_cast<std::size_t>(output->index)] = 1;
        stack.push_back({output, 0});
        while (!stack.empty()) {
            auto& [box, next] = stack.back();
            const auto& boxFeeders = feeders[static_cast<std::size_t>(box->index)];
            if (next < boxFeeders.size()) {
                NodeContext* feeder = boxFeeders[next++];
                if (feeder->isSource() || visited[static_cast<std::size_t>(feeder->index)]) continue;
                visited[static_cast<std::size_t>(feeder->index)] = 1;
                stack.push_back({feeder, 0});
                continue;
            }
            tree.postOrder.push_back(box);
            stack.pop_back();
        }
        for (std::size_t i = 0; i < tree.postOrder.size(); ++i) position[static_cast<std::size_t>(tree.postOrder[i]->index)] = static_cast<int>(i);
        for (const NodeContext* box : tree.postOrder) {
            std::vector<int> next;
            for (const auto& out : box->outputs) {
                for (const Target& t : out.targets) {
                    const int at = position[static_cast<std::size_t>(t.node->index)];
                    if (at >= 0 && std::find(next.begin(), next.end(), at) == next.end()) next.push_back(at);
                }
            }
            tree.successors.push_back(std::move(next));
        }
        if (detail == TreeDetail::Downstream) {
            // D(b): the boxes reachable from b inside this tree, on the way to the output. Post-order
            // indices ascending is the order items flow in (a DAG walk can reach a box before all of
            // its feeders).
            for (std::size_t b = 0; b < tree.postOrder.size(); ++b) {
                std::vector<int> down;
                std::vector<char> seen(tree.postOrder.size(), 0);
                std::vector<int> pending{static_cast<int>(b)};
                while (!pending.empty()) {
                    const int k = pending.back();
                    pending.pop_back();
                    if (seen[static_cast<std::size_t>(k)]) continue;
                    seen[static_cast<std::size_t>(k)] = 1;
                    down.push_back(k);
                    for (int s : tree.successors[static_cast<std::size_t>(k)]) pending.push_back(s);
                }
                std::sort(down.begin(), down.end());
                tree.downstream.push_back(std::move(down));
            }
        }
        for (const NodeContext* box : tree.postOrder) position[static_cast<std::size_t>(box->index)] = -1;
        trees.push_back(std::move(tree));
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

}  // namespace isochron
