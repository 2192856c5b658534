#include "ui/model/graph_resolution.h"

namespace isochron::ui {
namespace {

std::vector<PortView> portViews(const std::vector<ResolvedPort>& ports, const std::vector<PortSpec>& specs) {
    std::vector<PortView> views;
    views.reserve(ports.size());
    for (const ResolvedPort& port : ports) {
        const PortSpec& spec = specs[static_cast<std::size_t>(port.specIndex)];
        views.push_back({port.name, port.type.toString(), spec.doc, port.optional, port.type.isConcrete()});
    }
    return views;
}

}  // namespace

GraphResolution GraphResolution::of(const GraphSpec& graph, const OperatorRegistry& registry) {
    GraphResolution result;
    ValidatedGraph resolved = resolveGraph(graph, registry, result.problems_);
    for (const NodeSpec& spec : graph.nodes) result.nodes_[spec.id];
    for (const ValidatedNode& node : resolved.nodes) {
        NodeResolution& view = result.nodes_[node.id];
        view.known = true;
        view.inputs = portViews(node.inputs, node.descriptor->inputs);
        view.outputs = portViews(node.outputs, node.descriptor->outputs);
    }
    for (const GraphError& problem : result.problems_) {
        auto it = result.nodes_.find(problem.node);
        if (it != result.nodes_.end()) it->second.problems.push_back(problem);
    }
    return result;
}

const NodeResolution* GraphResolution::node(std::string_view id) const {
    auto it = nodes_.find(id);
    return it == nodes_.end() ? nullptr : &it->second;
}

int GraphResolution::portIndex(std::string_view nodeId, std::string_view port, bool output) const {
    const NodeResolution* view = node(nodeId);
    if (!view) return -1;
    const auto& ports = output ? view->outputs : view->inputs;
    const bool bus = !port.empty() && port.back() == '*';
    const std::string_view base = bus ? port.substr(0, port.size() - 1) : port;
    for (std::size_t i = 0; i < ports.size(); ++i) {
        const std::string& name = ports[i].name;
        if (!bus && name == port) return static_cast<int>(i);
        if (bus && name.size() > base.size() && name.compare(0, base.size(), base) == 0 &&
            std::isdigit(static_cast<unsigned char>(name[base.size()]))) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

}  // namespace isochron::ui
