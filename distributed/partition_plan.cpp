#include "distributed/partition_plan.h"

#include <map>
#include <set>
#include <tuple>

#include "distributed/wire_format.h"
#include "engine/graph/strong_components.h"

namespace isochron::distributed {
namespace {

std::string endpointName(const ValidatedGraph& graph, int node, bool input, int port) {
    const ValidatedNode& n = graph.nodes[static_cast<std::size_t>(node)];
    return n.id + "." + (input ? n.inputs : n.outputs)[static_cast<std::size_t>(port)].name;
}

}  // namespace

std::vector<int> nodePartitions(const GraphSpec& file, const ValidatedGraph& graph) {
    std::vector<int> partitions;
    partitions.reserve(graph.nodes.size());
    for (const ValidatedNode& node : graph.nodes) {
        const NodeSpec* spec = file.findNode(node.id.substr(0, node.id.find('/')));
        partitions.push_back(spec && spec->partition ? *spec->partition : 0);
    }
    return partitions;
}

bool isPartitioned(const GraphSpec& file) {
    for (const NodeSpec& node : file.nodes) {
        if (node.partition.value_or(0) != 0) return true;
    }
    return false;
}

std::string ChannelSpec::toText() const {
    std::string text;
    for (const std::string& consumer : to) text += (text.empty() ? "" : ", ") + consumer;
    return text;
}

namespace {

/// The channels, and for each edge of `graph` the index of the channel it travels on (-1: inside a
/// partition).
struct ChannelPlan {
    std::vector<ChannelSpec> channels;
    std::vector<int> channelOfEdge;
};

ChannelPlan planChannels(const ValidatedGraph& graph, const std::vector<int>& partitions) {
    ChannelPlan plan;
    std::map<std::tuple<int, int, int>, int> byOutputAndPartition;  // (node, port, receiving partition) -> channel
    for (const ValidatedEdge& edge : graph.edges) {
        const int from = partitions[static_cast<std::size_t>(edge.fromNode)];
        const int to = partitions[static_cast<std::size_t>(edge.toNode)];
        if (from == to) {
            plan.channelOfEdge.push_back(-1);
            continue;
        }
        const auto [found, added] = byOutputAndPartition.try_emplace({edge.fromNode, edge.fromPort, to}, static_cast<int>(plan.channels.size()));
        if (added) {
            ChannelSpec channel;
            channel.index = found->second;
            channel.from = endpointName(graph, edge.fromNode, false, edge.fromPort);
            channel.fromPartition = from;
            channel.toPartition = to;
            channel.type = graph.nodes[static_cast<std::size_t>(edge.fromNode)].outputs[static_cast<std::size_t>(edge.fromPort)].type;
            plan.channels.push_back(std::move(channel));
        }
        plan.channels[static_cast<std::size_t>(found->second)].to.push_back(endpointName(graph, edge.toNode, true, edge.toPort));
        plan.channelOfEdge.push_back(found->second);
    }
    return plan;
}

}  // namespace

std::vector<ChannelSpec> channelsOf(const ValidatedGraph& graph, const std::vector<int>& partitions) {
    return planChannels(graph, partitions).channels;
}

std::vector<GraphError> checkPartitions(const ValidatedGraph& graph, const std::vector<int>& partitions, int ranks) {
    std::vector<GraphError> errors;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (partitions[i] >= ranks) {
            errors.push_back({graph.nodes[i].id, "", "partition",
                              "is " + std::to_string(partitions[i]) + " but the run has " + std::to_string(ranks) + " ranks (0 to " +
                                  std::to_string(ranks - 1) + "): start it with mpirun -np " + std::to_string(partitions[i] + 1) + " or more"});
        }
    }
    const std::vector<ChannelSpec> channels = channelsOf(graph, partitions);
    int highest = 0;
    for (int p : partitions) highest = std::max(highest, p);
    std::vector<std::vector<int>> feeds(static_cast<std::size_t>(highest) + 1);
    for (const ChannelSpec& channel : channels) {
        if (!crossesRanks(channel.type)) {
            errors.push_back({"", "", "partition",
                              "edge " + channel.from + " -> " + channel.toText() + " crosses partitions but carries " + channel.type.toString() +
                                  " items, which cannot be sent to another rank: put both nodes in one partition"});
        }
        feeds[static_cast<std::size_t>(channel.fromPartition)].push_back(channel.toPartition);
    }
    // A sender waits for credits while its engine does nothing else, so partitions feeding each other
    // could wait on each other for ever: the partitions must form a pipeline (a DAG).
    const std::vector<int> cycle = cycleOfEachNode(feeds);
    std::map<int, std::vector<int>> cycles;
    for (std::size_t p = 0; p < cycle.size(); ++p) {
        if (cycle[p] >= 0) cycles[cycle[p]].push_back(static_cast<int>(p));
    }
    for (const auto& [id, members] : cycles) {
        std::string list;
        for (int p : members) list += (list.empty() ? "" : ", ") + std::to_string(p);
        errors.push_back({"", "", "partition",
                          "partitions " + list + " feed each other in a cycle; channels between ranks must flow one way (a pipeline of partitions)"});
    }
    return errors;
}

LocalPart localPart(const ValidatedGraph& graph, const std::vector<int>& partitions, int partition, const EndpointFactory& makeSender,
                    const EndpointFactory& makeReceiver) {
    LocalPart part;
    part.graph.spec = graph.spec;
    std::vector<int> localIndex(graph.nodes.size(), -1);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (partitions[i] != partition) continue;
        localIndex[i] = static_cast<int>(part.graph.nodes.size());
        part.graph.nodes.push_back(graph.nodes[i]);
    }
    auto addEndpoint = [&](const ChannelSpec& channel, const EndpointFactory& make, bool sender) {
        part.endpointDescriptors.push_back(std::make_unique<OperatorDescriptor>(make(channel)));
        ValidatedNode node;
        node.descriptor = part.endpointDescriptors.back().get();
        const ResolvedPort port{sender ? "in" : "out", channel.type};
        if (sender) {
            node.id = channel.from + " -> " + channel.toText() + " (rank " + std::to_string(channel.toPartition) + ")";
            node.inputs.push_back(port);
        } else {
            node.id = channel.from + " (rank " + std::to_string(channel.fromPartition) + ") -> " + channel.toText();
            node.outputs.push_back(port);
        }
        part.graph.nodes.push_back(std::move(node));
        return static_cast<int>(part.graph.nodes.size()) - 1;
    };
    const ChannelPlan plan = planChannels(graph, partitions);
    std::vector<int> endpointOfChannel(plan.channels.size(), -1);  // local node of this rank's end of each channel
    for (std::size_t e = 0; e < graph.edges.size(); ++e) {
        const ValidatedEdge& edge = graph.edges[e];
        const int fromLocal = localIndex[static_cast<std::size_t>(edge.fromNode)];
        const int toLocal = localIndex[static_cast<std::size_t>(edge.toNode)];
        const int channel = plan.channelOfEdge[e];
        if (channel < 0) {
            if (fromLocal >= 0) part.graph.edges.push_back({fromLocal, edge.fromPort, toLocal, edge.toPort});
            continue;
        }
        const ChannelSpec& spec = plan.channels[static_cast<std::size_t>(channel)];
        int& endpoint = endpointOfChannel[static_cast<std::size_t>(channel)];
        if (fromLocal >= 0 && endpoint < 0) {
            // The channel's first edge: one sender for all of its consumers.
            part.outgoing.push_back(spec);
            endpoint = addEndpoint(spec, makeSender, true);
            part.graph.edges.push_back({fromLocal, edge.fromPort, endpoint, 0});
        } else if (toLocal >= 0) {
            if (endpoint < 0) {
                part.incoming.push_back(spec);
                endpoint = addEndpoint(spec, makeReceiver, false);
            }
            part.graph.edges.push_back({endpoint, 0, toLocal, edge.toPort});
        }
    }
    return part;
}

}  // namespace isochron::distributed
