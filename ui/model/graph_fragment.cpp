#include "ui/model/graph_fragment.h"

#include <algorithm>
#include <limits>
#include <map>

#include "engine/graph/graph_file.h"

namespace isochron::ui {

std::string uniqueNodeId(const std::string& base, const std::set<std::string>& taken) {
    if (!taken.count(base)) return base;
    std::string stem = base;
    auto underscore = stem.rfind('_');
    if (underscore != std::string::npos && underscore + 1 < stem.size() &&
        std::all_of(stem.begin() + static_cast<std::ptrdiff_t>(underscore) + 1, stem.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        stem.resize(underscore);
    }
    for (int n = 2;; ++n) {
        std::string candidate = stem + "_" + std::to_string(n);
        if (!taken.count(candidate)) return candidate;
    }
}

std::string copyFragment(const GraphSpec& graph, const std::vector<std::string>& nodeIds) {
    GraphSpec fragment;
    const std::set<std::string> chosen(nodeIds.begin(), nodeIds.end());
    for (const NodeSpec& node : graph.nodes) {
        if (chosen.count(node.id)) fragment.nodes.push_back(node);
    }
    for (const EdgeSpec& edge : graph.edges) {
        if (chosen.count(edge.fromNode) && chosen.count(edge.toNode)) fragment.edges.push_back(edge);
    }
    fragment.scheduler = graph.scheduler;
    return serializeGraph(fragment);
}

GraphFragment pasteFragment(const std::string& text, const std::set<std::string>& taken, std::optional<NodePosition> at) {
    GraphSpec parsed = parseGraph(text);
    GraphFragment fragment;
    std::set<std::string> used = taken;
    std::map<std::string, std::string> renamed;
    double left = std::numeric_limits<double>::max(), top = std::numeric_limits<double>::max();
    for (const NodeSpec& node : parsed.nodes) {
        if (!node.position) continue;
        left = std::min(left, node.position->x);
        top = std::min(top, node.position->y);
    }
    for (NodeSpec node : parsed.nodes) {
        std::string id = uniqueNodeId(node.id, used);
        used.insert(id);
        renamed[node.id] = id;
        node.id = id;
        if (at) {
            NodePosition p = node.position.value_or(NodePosition{left, top});
            node.position = NodePosition{p.x - left + at->x, p.y - top + at->y};
        }
        fragment.nodes.push_back(std::move(node));
    }
    for (EdgeSpec edge : parsed.edges) {
        auto from = renamed.find(edge.fromNode);
        auto to = renamed.find(edge.toNode);
        if (from == renamed.end() || to == renamed.end()) continue;
        edge.fromNode = from->second;
        edge.toNode = to->second;
        fragment.edges.push_back(std::move(edge));
    }
    return fragment;
}

}  // namespace isochron::ui
