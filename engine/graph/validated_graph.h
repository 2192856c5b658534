// Validation: check a GraphSpec against the operator registry and resolve it into a runnable form.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_spec.h"
#include "engine/graph/stop_poll.h"
#include "engine/operators/registry.h"
#include "engine/qos/qos_graph.h"

namespace isochron {

/// A node whose type exists, whose parameters are valid (defaults filled in, paths resolved) and
/// whose ports have concrete types. [value type]
struct ValidatedNode {
    std::string id;
    const OperatorDescriptor* descriptor = nullptr;
    ParamSet params;
    std::vector<ResolvedPort> inputs;   ///< types are what actually flows in (wildcards resolved)
    std::vector<ResolvedPort> outputs;  ///< concrete types
    std::vector<ChannelLayout> inputChannels;   ///< what each input carries (empty: unknown)
    std::vector<ChannelLayout> outputChannels;  ///< what each output carries (empty: unknown)
    /// Outputs (nodes without output ports): the node's "qos" field, else the graph's default.
    std::optional<QosGraph> qos;
};

/// An edge by node and port indices.
struct ValidatedEdge {
    int fromNode, fromPort, toNode, toPort;
};

/// A graph that passed validation. [value type]
struct ValidatedGraph {
    GraphSpec spec;
    std::vector<ValidatedNode> nodes;
    std::vector<ValidatedEdge> edges;
    /// The subgraph files expanded into `spec`, canonical (a run's outputs must not overwrite them).
    std::vector<std::filesystem::path> subgraphFiles;
};

/// Deadline of the default QoS graph when a graph file gives none ("qos_default": {"deadline_ms": ...}).
inline constexpr double kDefaultQosDeadlineMs = 100.0;

/// The graph resolved as far as it goes, every problem appended to `errors`: nodes of unknown type
/// are left out, bad parameters keep their defaults, edges to missing ports or to fed inputs are
/// dropped. The editor shows ports and problems of graphs still being built. Never throws for graph
/// content; throws StartStopped when `stop` (asked every kStepsPerStopPoll nodes or edges of each pass) says so.
ValidatedGraph resolveGraph(const GraphSpec& graph, const OperatorRegistry& registry, std::vector<GraphError>& errors, const StopPoll& stop = {});
/// Every problem in `graph` (unknown types, bad parameters, dangling edges, type mismatches,
/// unconnected required inputs, an input fed twice), or none. Never throws for graph content.
std::vector<GraphError> checkGraph(const GraphSpec& graph, const OperatorRegistry& registry);
/// The validated graph; throws GraphException with every problem found, or StartStopped when `stop`
/// says so (as resolveGraph).
ValidatedGraph validateGraph(const GraphSpec& graph, const OperatorRegistry& registry, const StopPoll& stop = {});

/// Apply "node.param=value" (command-line text parsed with the parameter's type); throws
/// GraphException naming the node/parameter if it does not exist or the value is invalid.
void setParameterFromText(GraphSpec& graph, const OperatorRegistry& registry, const std::string& assignment);

}  // namespace isochron
