#include "engine/graph/channel_layouts.h"

#include <exception>

namespace isochron {
namespace {

/// Feeders before the nodes they feed (Kahn's order), then the nodes on loops in file order.
std::vector<int> feedersFirst(const ValidatedGraph& graph) {
    const std::size_t count = graph.nodes.size();
    std::vector<int> waitingFor(count, 0);
    std::vector<std::vector<int>> targets(count);
    for (const ValidatedEdge& e : graph.edges) {
        ++waitingFor[static_cast<std::size_t>(e.toNode)];
        targets[static_cast<std::size_t>(e.fromNode)].push_back(e.toNode);
    }
    std::vector<int> order;
    std::vector<bool> placed(count, false);
    for (std::size_t n = 0; n < count; ++n) {
        if (waitingFor[n] == 0) order.push_back(static_cast<int>(n)), placed[n] = true;
    }
    for (std::size_t next = 0; next < order.size(); ++next) {
        for (int target : targets[static_cast<std::size_t>(order[next])]) {
            if (--waitingFor[static_cast<std::size_t>(target)] == 0) order.push_back(target), placed[static_cast<std::size_t>(target)] = true;
        }
    }
    for (std::size_t n = 0; n < count; ++n) {
        if (!placed[n]) order.push_back(static_cast<int>(n));
    }
    return order;
}

}  // namespace

void assignChannelLayouts(ValidatedGraph& graph, const std::set<int>& unresolved, std::vector<GraphError>& errors, StopPoller& stop) {
    std::vector<std::vector<const ValidatedEdge*>> edgesInto(graph.nodes.size());
    for (const ValidatedEdge& e : graph.edges) edgesInto[static_cast<std::size_t>(e.toNode)].push_back(&e);
    for (ValidatedNode& node : graph.nodes) {
        node.inputChannels.assign(node.inputs.size(), {});
        node.outputChannels.assign(node.outputs.size(), {});
    }
    // Nodes with a problem here or upstream: what they carry is unknown, and what follows from it (an
    // array without positions) is not reported again; their own error is the cause.
    std::vector<bool> failed(graph.nodes.size(), false);
    for (int n : feedersFirst(graph)) {
        stop.unit();
        ValidatedNode& node = graph.nodes[static_cast<std::size_t>(n)];
        for (const ValidatedEdge* e : edgesInto[static_cast<std::size_t>(n)]) {
            node.inputChannels[static_cast<std::size_t>(e->toPort)] =
                graph.nodes[static_cast<std::size_t>(e->fromNode)].outputChannels[static_cast<std::size_t>(e->fromPort)];
            if (failed[static_cast<std::size_t>(e->fromNode)]) failed[static_cast<std::size_t>(n)] = true;
        }
        if (unresolved.count(n)) failed[static_cast<std::size_t>(n)] = true;
        if (failed[static_cast<std::size_t>(n)]) continue;
        const OperatorDescriptor& d = *node.descriptor;
        try {
            if (d.adoptChannels) d.adoptChannels(node.params, node.inputs, node.inputChannels);
            if (d.channelsOut) {
                std::vector<ChannelLayout> out = d.channelsOut(node.params, node.inputChannels, node.outputs.size());
                out.resize(node.outputs.size());
                node.outputChannels = std::move(out);
            } else {
                for (std::size_t o = 0; o < node.outputs.size(); ++o) {
                    const int in = d.followedInput(node.inputs, node.outputs[o]);
                    if (in >= 0) node.outputChannels[o] = node.inputChannels[static_cast<std::size_t>(in)];
                }
            }
        } catch (const ParameterError& e) {
            errors.push_back({node.id, "", "params." + e.param(), e.what()});
            failed[static_cast<std::size_t>(n)] = true;
        } catch (const std::exception& e) {
            errors.push_back({node.id, "", "", e.what()});
            failed[static_cast<std::size_t>(n)] = true;
        }
    }
}

}  // namespace isochron
