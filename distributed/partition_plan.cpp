#include "distributed/partition_plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "distributed/wire_format.h"
#include "engine/graph/strong_components.h"
#include "engine/runtime/engine.h"

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

namespace {

// Partitions feeding each other: for each partition the index of the cycle it lies on (-1: none),
// from the edges of `graph` between partitions.
std::vector<int> partitionCycles(const ValidatedGraph& graph, const std::vector<int>& partitions) {
    int highest = 0;
    for (int p : partitions) highest = std::max(highest, p);
    std::vector<std::vector<int>> feeds(static_cast<std::size_t>(highest) + 1);
    for (const ValidatedEdge& edge : graph.edges) {
        const int from = partitions[static_cast<std::size_t>(edge.fromNode)];
        const int to = partitions[static_cast<std::size_t>(edge.toNode)];
        if (from != to) feeds[static_cast<std::size_t>(from)].push_back(to);
    }
    return cycleOfEachNode(feeds);
}

// The node of the graph file `node` belongs to: itself, or the subgraph node holding it ("filt/lowpass" -> "filt").
std::string fileNodeOf(const ValidatedGraph& graph, int node) {
    const std::string& id = graph.nodes[static_cast<std::size_t>(node)].id;
    return id.substr(0, id.find('/'));
}

// `partitions` with the file node `fileNode` (all of its nodes) moved to `partition`.
std::vector<int> moved(const ValidatedGraph& graph, std::vector<int> partitions, const std::string& fileNode, int partition) {
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (fileNodeOf(graph, static_cast<int>(i)) == fileNode) partitions[i] = partition;
    }
    return partitions;
}

// Whether `partitions` run: no cycle between them and nothing but what a channel carries crossing ranks.
bool runsOnRanks(const ValidatedGraph& graph, const std::vector<int>& partitions) {
    const std::vector<int> cycles = partitionCycles(graph, partitions);
    if (std::any_of(cycles.begin(), cycles.end(), [](int c) { return c >= 0; })) return false;
    for (const ChannelSpec& channel : channelsOf(graph, partitions)) {
        if (!crossesRanks(channel.type)) return false;
    }
    return true;
}

// The edges between partitions of cycle `cycle`; edges running back (to a lower partition) first,
// since a pipeline numbered in its order only has forward edges.
std::vector<const ValidatedEdge*> cycleEdges(const ValidatedGraph& graph, const std::vector<int>& partitions, const std::vector<int>& cycles,
                                             int cycle) {
    std::vector<const ValidatedEdge*> edges;
    for (const ValidatedEdge& edge : graph.edges) {
        const int from = partitions[static_cast<std::size_t>(edge.fromNode)];
        const int to = partitions[static_cast<std::size_t>(edge.toNode)];
        if (from != to && cycles[static_cast<std::size_t>(from)] == cycle && cycles[static_cast<std::size_t>(to)] == cycle) edges.push_back(&edge);
    }
    return edges;
}

// One node moved to another partition that makes every partition run (its consumer into the
// producer's partition, or the producer into its consumer's, of one of `edges`), as advice: "put node
// 'back' in partition 1", or "" when no single move does.
std::string cycleBreakingMove(const ValidatedGraph& graph, const std::vector<int>& partitions, const std::vector<const ValidatedEdge*>& edges) {
    std::vector<const ValidatedEdge*> backFirst = edges;
    std::stable_partition(backFirst.begin(), backFirst.end(), [&](const ValidatedEdge* edge) {
        return partitions[static_cast<std::size_t>(edge->fromNode)] > partitions[static_cast<std::size_t>(edge->toNode)];
    });
    for (const ValidatedEdge* edge : backFirst) {
        const int from = partitions[static_cast<std::size_t>(edge->fromNode)];
        const int to = partitions[static_cast<std::size_t>(edge->toNode)];
        const std::pair<std::string, int> moves[] = {{fileNodeOf(graph, edge->toNode), from}, {fileNodeOf(graph, edge->fromNode), to}};
        for (const auto& [node, partition] : moves) {
            if (runsOnRanks(graph, moved(graph, partitions, node, partition))) {
                return "put node '" + node + "' in partition " + std::to_string(partition);
            }
        }
    }
    return {};
}

}  // namespace

std::vector<GraphError> checkPartitions(const ValidatedGraph& graph, const std::vector<int>& partitions, int ranks) {
    std::vector<GraphError> errors;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (partitions[i] >= ranks) {
            errors.push_back({graph.nodes[i].id, "", "partition",
                              "is " + std::to_string(partitions[i]) + " but the run has " + std::to_string(ranks) + " ranks (0 to " +
                                  std::to_string(ranks - 1) + "): start it with mpirun -np " + std::to_string(partitions[i] + 1) + " or more"});
        }
    }
    for (const ChannelSpec& channel : channelsOf(graph, partitions)) {
        if (!crossesRanks(channel.type)) {
            errors.push_back({"", "", "partition",
                              "edge " + channel.from + " -> " + channel.toText() + " crosses partitions but carries " + channel.type.toString() +
                                  " items, which cannot be sent to another rank: put both nodes in one partition"});
        }
    }
    // A sender waits for credits while its engine does nothing else, so partitions feeding each other
    // could wait on each other for ever: the partitions must form a pipeline (a DAG).
    const std::vector<int> cycles = partitionCycles(graph, partitions);
    std::map<int, std::vector<int>> members;
    for (std::size_t p = 0; p < cycles.size(); ++p) {
        if (cycles[p] >= 0) members[cycles[p]].push_back(static_cast<int>(p));
    }
    for (const auto& [cycle, inCycle] : members) {
        std::string list;
        for (int p : inCycle) list += (list.empty() ? "" : ", ") + std::to_string(p);
        const std::vector<const ValidatedEdge*> edges = cycleEdges(graph, partitions, cycles, cycle);
        std::string through;
        constexpr std::size_t kEdgesNamed = 8;
        for (std::size_t e = 0; e < edges.size() && e < kEdgesNamed; ++e) {
            const ValidatedEdge& edge = *edges[e];
            through += (e == 0 ? "" : "; ") + endpointName(graph, edge.fromNode, false, edge.fromPort) + " on rank " +
                       std::to_string(partitions[static_cast<std::size_t>(edge.fromNode)]) + " -> " +
                       endpointName(graph, edge.toNode, true, edge.toPort) + " on rank " + std::to_string(partitions[static_cast<std::size_t>(edge.toNode)]);
        }
        if (edges.size() > kEdgesNamed) through += "; and " + std::to_string(edges.size() - kEdgesNamed) + " more edges between them";
        const std::string move = cycleBreakingMove(graph, partitions, edges);
        errors.push_back({"", "", "partition",
                          "partitions " + list + " feed each other in a cycle through the edges " + through +
                              "; channels between ranks must flow one way (a pipeline of partitions): " +
                              (move.empty() ? "move nodes so that every edge between these partitions runs one way, e.g. from lower to higher"
                                            : move + " to break it")});
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

void markChannelReceivers(const LocalPart& part, Engine& engine) {
    for (const NodeContext* node : engine.nodes()) {
        const bool endpoint = std::any_of(part.endpointDescriptors.begin(), part.endpointDescriptors.end(),
                                          [&](const auto& descriptor) { return descriptor.get() == node->descriptor; });
        if (endpoint && node->isSource()) engine.markStandInSource(*node);
    }
}

}  // namespace isochron::distributed
