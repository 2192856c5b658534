// Partitioned graphs: which rank runs which node, and the channels between them.
//
// A graph file puts nodes into partitions ("partition": k, default 0); under mpirun rank k runs
// partition k. Every edge whose ends are in different partitions becomes a channel: on the producer's
// rank the edge ends in a sender node, on the consumer's rank it starts at a receiver node, and the
// two talk over MPI (mpi_channel.h). Everything else about the graph (validation, parameters,
// progress) is unchanged: each rank runs an ordinary engine on its part. Nodes inside a subgraph run
// in their subgraph node's partition.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/validated_graph.h"

namespace isochron {
class Engine;
}

namespace isochron::distributed {

/// One output's items going to one other partition: every edge from that output to a node of that
/// partition shares it, so the items cross once and fan out on the receiving rank. Channel numbers are
/// the same on every rank. [value type]
struct ChannelSpec {
    int index = 0;                ///< 0, 1, ... in the order of each channel's first edge in the graph
    std::string from;             ///< "node.port" of the producer
    std::vector<std::string> to;  ///< "node.port" of each consumer on the receiving partition, in edge order
    int fromPartition = 0, toPartition = 0;
    PortType type;  ///< what the producer's port carries (concrete)

    /// The consumers as one text: "filter.in" or "filter.in, meter.in".
    std::string toText() const;
};

/// The partition of each node of `graph` (validated from `file`, same order as graph.nodes): its own
/// node's in `file`, or for a node inside a subgraph ("filt/lowpass") the subgraph node's. [any thread]
std::vector<int> nodePartitions(const GraphSpec& file, const ValidatedGraph& graph);
/// Whether any node of `file` is placed outside partition 0. [any thread]
bool isPartitioned(const GraphSpec& file);
/// The channels between partitions, one per (output, receiving partition), numbered. [any thread]
std::vector<ChannelSpec> channelsOf(const ValidatedGraph& graph, const std::vector<int>& partitions);
/// Problems with running `graph` on `ranks` ranks: a node in a partition no rank runs (named), an edge
/// between partitions that carries custom items, partitions feeding each other in a cycle. [any thread]
std::vector<GraphError> checkPartitions(const ValidatedGraph& graph, const std::vector<int>& partitions, int ranks);

/// Makes the descriptor of a channel's sender (one input "in") or receiver (one output "out").
using EndpointFactory = std::function<OperatorDescriptor(const ChannelSpec&)>;

/// What one rank runs: its partition's nodes and one endpoint node per channel that touches it. Owns
/// the endpoints' descriptors, so it must outlive the engine built from `graph`. [value type, move only]
struct LocalPart {
    ValidatedGraph graph;
    std::vector<ChannelSpec> outgoing, incoming;
    std::vector<std::unique_ptr<OperatorDescriptor>> endpointDescriptors;
};

/// The part of `graph` that `partition` runs. Endpoint node ids say where the channel goes, e.g.
/// "gen.out -> filter.in (rank 1)". Assumes checkPartitions() found nothing. [any thread]
LocalPart localPart(const ValidatedGraph& graph, const std::vector<int>& partitions, int partition, const EndpointFactory& makeSender,
                    const EndpointFactory& makeReceiver);
/// Tells `engine`, built from `part.graph`, that the part's channel receivers stand in for sources of
/// other partitions (Engine::markStandInSource): one cut off gives no warning, as the graph run whole
/// has no such node. [before the engine runs]
void markChannelReceivers(const LocalPart& part, Engine& engine);

}  // namespace isochron::distributed
