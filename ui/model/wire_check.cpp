#include "ui/model/wire_check.h"

#include <algorithm>

#include "engine/graph/validated_graph.h"

namespace isochron::ui {

std::string wireRefusal(const GraphSpec& graph, const OperatorRegistry& registry, const EdgeSpec& edge) {
    if (!graph.findNode(edge.fromNode)) return "there is no node named '" + edge.fromNode + "'";
    if (!graph.findNode(edge.toNode)) return "there is no node named '" + edge.toNode + "'";
    if (std::find(graph.edges.begin(), graph.edges.end(), edge) != graph.edges.end()) {
        return edge.from() + " is already wired to " + edge.to();
    }
    std::vector<GraphError> before;
    resolveGraph(graph, registry, before);
    GraphSpec candidate = graph;
    candidate.edges.push_back(edge);
    std::vector<GraphError> after;
    resolveGraph(candidate, registry, after);
    auto known = [&](const GraphError& e) {
        return std::any_of(before.begin(), before.end(), [&](const GraphError& b) { return b.toString() == e.toString(); });
    };
    // An open output type is reported at the output itself with no field; wiring it is fine.
    auto openOutputType = [&](const GraphError& e) {
        return e.node == edge.fromNode && e.field.empty() && e.port == edge.fromPort;
    };
    for (const GraphError& e : after) {
        if (known(e) || openOutputType(e)) continue;
        return e.message;
    }
    return {};
}

}  // namespace isochron::ui
