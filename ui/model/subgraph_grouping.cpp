#include "ui/model/subgraph_grouping.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "engine/graph/graph_paths.h"
#include "ui/model/graph_fragment.h"

namespace isochron::ui {
namespace {

namespace fs = std::filesystem;

bool isBus(const std::string& port) { return !port.empty() && port.back() == '*'; }

// `wanted` if no exposed name uses it yet, else node_wanted, else with a numeric suffix.
std::string freeName(const std::string& wanted, const std::string& node, std::set<std::string>& used) {
    std::string name = used.count(wanted) ? uniqueNodeId(node + "_" + wanted, used) : wanted;
    used.insert(name);
    return name;
}

// The parameters of `spec`'s subgraph nodes that set a path parameter inside their file (at any depth),
// by node id: a subgraph node's own parameters have no descriptor, so its file says which are paths.
std::map<std::string, std::set<std::string>> subgraphPathParams(const GraphSpec& spec, const OperatorRegistry& registry, const fs::path& from) {
    std::map<std::string, std::set<std::string>> paths;
    const bool any = std::any_of(spec.nodes.begin(), spec.nodes.end(), [](const NodeSpec& node) { return isSubgraphNode(node) && !node.params.empty(); });
    if (!any) return paths;
    GraphSpec located = spec;
    located.baseDirectory = from;
    std::vector<GraphError> errors;  // a subgraph that cannot be read has no parameters to rebase
    const ExpandedGraph expanded = expandSubgraphs(located, registry, errors);
    for (const auto& [nodeId, subgraph] : expanded.subgraphs) {
        for (const ExposedEndpoint& exposed : subgraph.flat.params) {
            for (const Endpoint& inner : exposed.inner) {
                const NodeSpec* flatNode = expanded.flat.findNode(inner.node);
                const OperatorDescriptor* d = flatNode ? registry.find(flatNode->type) : nullptr;
                const ParamSpec* p = d ? d->findParam(inner.name) : nullptr;
                if (p && p->kind == ParamKind::Path) paths[nodeId].insert(exposed.name);
            }
        }
    }
    return paths;
}

}  // namespace

void rebasePaths(GraphSpec& spec, const OperatorRegistry& registry, const fs::path& from, const fs::path& to) {
    if (from.empty() || to.empty() || from == to) return;
    const std::map<std::string, std::set<std::string>> subgraphPaths = subgraphPathParams(spec, registry, from);
    for (NodeSpec& node : spec.nodes) {
        if (const fs::path reference = subgraphReference(node); !reference.empty() && reference.is_relative()) {
            node.extra[kSubgraphField] = fs::relative((from / reference).lexically_normal(), to).generic_string();
        }
        const OperatorDescriptor* d = registry.find(node.type);
        const auto exposedPaths = subgraphPaths.find(node.id);
        auto isPath = [&](const std::string& name) {
            if (exposedPaths != subgraphPaths.end()) return exposedPaths->second.count(name) > 0;
            const ParamSpec* p = d ? d->findParam(name) : nullptr;
            return p && p->kind == ParamKind::Path;
        };
        for (auto& [name, value] : node.params) {
            if (!isPath(name) || !value.is_string()) continue;
            const std::string text = value.get<std::string>();
            if (!isGraphRelativePath(text)) continue;
            value = fs::relative((from / text).lexically_normal(), to).generic_string();
        }
    }
}

GroupPlan planGroup(const GraphSpec& graph, const std::vector<std::string>& ids, const std::string& nodeId, const std::string& reference,
                    const std::vector<Endpoint>& parameters, const fs::path& fileFolder, const OperatorRegistry& registry) {
    const std::set<std::string> chosen(ids.begin(), ids.end());
    GroupPlan plan;
    double left = std::numeric_limits<double>::max(), top = std::numeric_limits<double>::max();
    for (const NodeSpec& node : graph.nodes) {
        if (!chosen.count(node.id)) continue;
        plan.file.nodes.push_back(node);
        if (node.position) {
            left = std::min(left, node.position->x);
            top = std::min(top, node.position->y);
        }
    }
    if (plan.file.nodes.empty()) throw std::invalid_argument("select the nodes to group first");
    if (left == std::numeric_limits<double>::max()) left = top = 0;
    for (NodeSpec& node : plan.file.nodes) {
        if (node.position) node.position = NodePosition{node.position->x - left, node.position->y - top};
    }

    SubgraphInterface interface;
    std::set<std::string> inputNames, outputNames, paramNames;
    std::map<std::string, std::string> inputFor, outputFor;  // outside source / inner source "node.port" -> exposed name
    for (const EdgeSpec& edge : graph.edges) {
        const bool fromInside = chosen.count(edge.fromNode) > 0, toInside = chosen.count(edge.toNode) > 0;
        if (fromInside && toInside) {
            plan.file.edges.push_back(edge);
            continue;
        }
        if (!fromInside && !toInside) continue;
        if (isBus(edge.fromPort) || isBus(edge.toPort)) {
            throw std::invalid_argument("the bus " + edge.from() + " -> " + edge.to() + " crosses the selection; a subgraph exposes single ports");
        }
        if (toInside) {
            auto [it, fresh] = inputFor.try_emplace(edge.from());
            if (fresh) {
                it->second = freeName(edge.toPort, edge.toNode, inputNames);
                interface.inputs.push_back({it->second, {}});
                plan.outerEdges.push_back({edge.fromNode, edge.fromPort, nodeId, it->second});
            }
            for (ExposedEndpoint& input : interface.inputs) {
                if (input.name == it->second) input.inner.push_back({edge.toNode, edge.toPort});
            }
        } else {
            auto [it, fresh] = outputFor.try_emplace(edge.from());
            if (fresh) {
                it->second = freeName(edge.fromPort, edge.fromNode, outputNames);
                interface.outputs.push_back({it->second, {{edge.fromNode, edge.fromPort}}});
            }
            plan.outerEdges.push_back({nodeId, it->second, edge.toNode, edge.toPort});
        }
    }
    for (const Endpoint& parameter : parameters) {
        if (!chosen.count(parameter.node)) throw std::invalid_argument("'" + parameter.node + "' is not among the nodes to group");
        interface.params.push_back({freeName(parameter.name, parameter.node, paramNames), {parameter}});
    }
    plan.file.scheduler = graph.scheduler;
    plan.file.extra[kInterfaceField] = interfaceToJson(interface);
    plan.file.baseDirectory = fileFolder;
    rebasePaths(plan.file, registry, graph.baseDirectory, fileFolder);

    plan.node.id = nodeId;
    plan.node.position = NodePosition{left, top};
    plan.node.extra[kSubgraphField] = reference;
    return plan;
}

UngroupPlan planUngroup(const GraphSpec& graph, const std::string& nodeId, const GraphSpec& file, const std::set<std::string>& taken,
                        const OperatorRegistry& registry) {
    const NodeSpec* outer = graph.findNode(nodeId);
    if (!outer) throw std::invalid_argument("there is no node '" + nodeId + "'");
    std::vector<GraphError> errors;
    const SubgraphInterface interface = parseInterface(file, nodeId, errors);
    if (!errors.empty()) throw GraphException(std::move(errors));

    GraphSpec inner = file;
    rebasePaths(inner, registry, file.baseDirectory, graph.baseDirectory);
    std::set<std::string> used = taken;
    std::map<std::string, std::string> renamed;
    const NodePosition origin = outer->position.value_or(NodePosition{});
    for (const NodeSpec& node : inner.nodes) {
        renamed[node.id] = uniqueNodeId(node.id, used);
        used.insert(renamed[node.id]);
    }
    for (const auto& [name, value] : outer->params) {
        for (const ExposedEndpoint& param : interface.params) {
            if (param.name != name) continue;
            if (NodeSpec* target = inner.findNode(param.inner.front().node)) target->params[param.inner.front().name] = value;
        }
    }
    UngroupPlan plan;
    for (NodeSpec node : inner.nodes) {
        node.id = renamed[node.id];
        if (node.position) node.position = NodePosition{node.position->x + origin.x, node.position->y + origin.y};
        plan.nodes.push_back(std::move(node));
    }
    auto rename = [&](const std::string& id) {
        auto it = renamed.find(id);
        return it == renamed.end() ? id : it->second;
    };
    for (EdgeSpec edge : inner.edges) {
        edge.fromNode = rename(edge.fromNode);
        edge.toNode = rename(edge.toNode);
        plan.edges.push_back(std::move(edge));
    }
    for (const EdgeSpec& edge : graph.edges) {
        if (edge.toNode == nodeId) {
            for (const ExposedEndpoint& input : interface.inputs) {
                if (input.name != edge.toPort) continue;
                for (const Endpoint& target : input.inner) plan.edges.push_back({edge.fromNode, edge.fromPort, rename(target.node), target.name});
            }
        } else if (edge.fromNode == nodeId) {
            for (const ExposedEndpoint& output : interface.outputs) {
                if (output.name == edge.fromPort) plan.edges.push_back({rename(output.inner.front().node), output.inner.front().name, edge.toNode, edge.toPort});
            }
        }
    }
    return plan;
}

}  // namespace isochron::ui
