#include "engine/schedulers/output_trees.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace isochron {

int OutputTree::indexOf(const NodeContext* box) const {
    auto it = std::find(postOrder.begin(), postOrder.end(), box);
    return it == postOrder.end() ? -1 : static_cast<int>(it - postOrder.begin());
}

std::vector<OutputTree> findOutputTrees(const std::vector<NodeContext*>& nodes) {
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
    for (NodeContext* output : nodes) {
        if (!output->isSink()) continue;
        OutputTree tree;
        tree.output = output;
        std::set<const NodeContext*> visited;
        std::function<void(NodeContext*)> visit = [&](NodeContext* box) {
            if (box->isSource() || !visited.insert(box).second) return;
            for (NodeContext* feeder : feeders[static_cast<std::size_t>(box->index)]) visit(feeder);
            tree.postOrder.push_back(box);
        };
        visit(output);
        // D(b): the boxes reachable from b inside this tree, on the way to the output. Post-order
        // indices ascending is the order items flow in (a DAG walk can reach a box before all of
        // its feeders).
        std::map<const NodeContext*, int> position;
        for (std::size_t i = 0; i < tree.postOrder.size(); ++i) position[tree.postOrder[i]] = static_cast<int>(i);
        for (NodeContext* box : tree.postOrder) {
            std::vector<int> down;
            std::vector<char> seen(tree.postOrder.size(), 0);
            std::vector<const NodeContext*> pending{box};
            while (!pending.empty()) {
                const NodeContext* b = pending.back();
                pending.pop_back();
                auto at = position.find(b);
                if (at == position.end() || seen[static_cast<std::size_t>(at->second)]) continue;
                seen[static_cast<std::size_t>(at->second)] = 1;
                down.push_back(at->second);
                for (const auto& out : b->outputs) {
                    for (const Target& t : out.targets) pending.push_back(t.node);
                }
            }
            std::sort(down.begin(), down.end());
            tree.downstream.push_back(std::move(down));
        }
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
