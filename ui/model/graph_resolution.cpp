#include "ui/model/graph_resolution.h"

#include <algorithm>
#include <cctype>

#include "distributed/partition_plan.h"
#include "engine/graph/endless_run.h"

namespace isochron::ui {
namespace {

/// Whether port `name` is one of the group a bus end "group*" names: the group's name, then digits.
bool inBus(std::string_view name, std::string_view busPort) {
    const std::string_view base = busPort.substr(0, busPort.size() - 1);
    return name.size() > base.size() && name.starts_with(base) &&
           std::all_of(name.begin() + static_cast<std::ptrdiff_t>(base.size()), name.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::vector<PortView> portViews(const std::vector<ResolvedPort>& ports, const std::vector<PortSpec>& specs, const std::vector<ChannelLayout>& channels) {
    std::vector<PortView> views;
    views.reserve(ports.size());
    for (std::size_t i = 0; i < ports.size(); ++i) {
        const ResolvedPort& port = ports[i];
        const PortSpec& spec = specs[static_cast<std::size_t>(port.specIndex)];
        views.push_back({port.name, port.type.toString(), spec.doc, port.optional, port.type.isConcrete(),
                         i < channels.size() ? describeLayout(channels[i]) : std::string()});
    }
    return views;
}

/// What isochron-run under mpirun refuses about the partitions of `graph` (`resolved` is its flat
/// graph): partitions feeding each other in a cycle, custom items between ranks. Warnings here, since
/// F5 runs the graph whole in one process, where partitions do not matter; on as many ranks as the
/// graph needs, as Run on MPI Ranks starts.
std::vector<GraphError> partitionWarnings(const GraphSpec& graph, const ValidatedGraph& resolved) {
    if (!distributed::isPartitioned(graph)) return {};
    const std::vector<int> partitions = distributed::nodePartitions(graph, resolved);
    const int ranks = *std::max_element(partitions.begin(), partitions.end()) + 1;
    std::vector<GraphError> warnings = distributed::checkPartitions(resolved, partitions, ranks);
    for (GraphError& warning : warnings) warning.message = "on MPI ranks (mpirun) this is refused: " + warning.message;
    return warnings;
}

}  // namespace

GraphResolution GraphResolution::of(const GraphSpec& graph, const OperatorRegistry& registry) {
    GraphResolution result;
    result.expanded_ = expandSubgraphs(graph, registry, result.problems_);
    ValidatedGraph resolved = resolveGraph(result.expanded_.flat, registry, result.problems_);
    for (const NodeSpec& spec : graph.nodes) result.nodes_[spec.id];
    std::map<std::string, const ValidatedNode*, std::less<>> flat;
    for (const ValidatedNode& node : resolved.nodes) {
        flat[node.id] = &node;
        auto view = result.nodes_.find(node.id);
        if (view == result.nodes_.end()) continue;  // inside a subgraph
        view->second.known = true;
        view->second.inputs = portViews(node.inputs, node.descriptor->inputs, node.inputChannels);
        view->second.outputs = portViews(node.outputs, node.descriptor->outputs, node.outputChannels);
    }
    // An exposed port looks like the (first) inner port it stands for.
    auto exposedViews = [&](const std::vector<ExposedEndpoint>& list, bool output) {
        std::vector<PortView> views;
        for (const ExposedEndpoint& exposed : list) {
            PortView view{exposed.name, "any", "", false, false};
            auto node = flat.find(exposed.inner.front().node);
            if (node != flat.end()) {
                const ValidatedNode& inner = *node->second;
                const auto ports = portViews(output ? inner.outputs : inner.inputs, output ? inner.descriptor->outputs : inner.descriptor->inputs,
                                             output ? inner.outputChannels : inner.inputChannels);
                for (const PortView& port : ports) {
                    if (port.name == exposed.inner.front().name) {
                        view = port;
                        view.name = exposed.name;
                    }
                }
            }
            views.push_back(std::move(view));
        }
        return views;
    };
    for (const auto& [id, subgraph] : result.expanded_.subgraphs) {
        NodeResolution& view = result.nodes_[id];
        view.known = true;
        view.inputs = exposedViews(subgraph.flat.inputs, false);
        view.outputs = exposedViews(subgraph.flat.outputs, true);
    }
    for (const GraphError& problem : result.problems_) {
        // A problem inside a subgraph ("filt/lowpass") belongs to the subgraph node ("filt").
        auto it = result.nodes_.find(problem.node.substr(0, problem.node.find('/')));
        if (it != result.nodes_.end()) it->second.problems.push_back(problem);
    }
    // The runner's own check, on the same flat graph it would run: one source of truth.
    if (result.problems_.empty()) {
        result.warnings_ = endlessRunWarnings(resolved);
        for (GraphError& warning : partitionWarnings(graph, resolved)) result.warnings_.push_back(std::move(warning));
    }
    return result;
}

namespace {

Endpoint flatten(const ExpandedGraph& expanded, const Endpoint& endpoint, std::vector<ExposedEndpoint> SubgraphInterface::*list) {
    auto subgraph = expanded.subgraphs.find(endpoint.node);
    if (subgraph == expanded.subgraphs.end()) return endpoint;
    for (const ExposedEndpoint& exposed : subgraph->second.flat.*list) {
        if (exposed.name == endpoint.name) return exposed.inner.front();
    }
    return endpoint;
}

}  // namespace

Endpoint GraphResolution::flatOutput(const Endpoint& endpoint) const { return flatten(expanded_, endpoint, &SubgraphInterface::outputs); }

Endpoint GraphResolution::flatInput(const Endpoint& endpoint) const { return flatten(expanded_, endpoint, &SubgraphInterface::inputs); }

Endpoint GraphResolution::flatParameter(const Endpoint& endpoint) const { return flatten(expanded_, endpoint, &SubgraphInterface::params); }

const NodeResolution* GraphResolution::node(std::string_view id) const {
    auto it = nodes_.find(id);
    return it == nodes_.end() ? nullptr : &it->second;
}

int GraphResolution::portIndex(std::string_view nodeId, std::string_view port, bool output) const {
    const NodeResolution* view = node(nodeId);
    if (!view) return -1;
    const auto& ports = output ? view->outputs : view->inputs;
    const bool bus = !port.empty() && port.back() == '*';
    for (std::size_t i = 0; i < ports.size(); ++i) {
        if (bus ? inBus(ports[i].name, port) : ports[i].name == port) return static_cast<int>(i);
    }
    return -1;
}

int GraphResolution::busWidth(std::string_view nodeId, std::string_view busPort, bool output) const {
    const NodeResolution* view = node(nodeId);
    if (!view) return 0;
    const auto& ports = output ? view->outputs : view->inputs;
    return static_cast<int>(std::count_if(ports.begin(), ports.end(), [&](const PortView& port) { return inBus(port.name, busPort); }));
}

}  // namespace isochron::ui
