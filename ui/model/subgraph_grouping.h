// Grouping a selection into a subgraph file and inlining a subgraph node back: the graph
// arithmetic behind the editor's Group and Ungroup, as plans that one StructureEdit applies. Grouping
// then ungrouping gives back the same nodes (ids, positions, parameters) and the same wires. No Qt.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "engine/graph/graph_spec.h"
#include "engine/graph/subgraph.h"
#include "engine/operators/registry.h"

namespace isochron::ui {

/// Relative path parameters and subgraph references of `spec`'s nodes re-expressed from folder `to`,
/// so they name the same files they named from folder `from`.
void rebasePaths(GraphSpec& spec, const OperatorRegistry& registry, const std::filesystem::path& from, const std::filesystem::path& to);

/// A selection turned into a subgraph: the file to write and what replaces the selection. [value type]
struct GroupPlan {
    GraphSpec file;                     ///< the selected nodes (top-left at 0,0), their wires and the interface
    NodeSpec node;                      ///< the subgraph node, at the selection's top-left
    std::vector<EdgeSpec> outerEdges;   ///< the wires that crossed the selection, now ending at the node
};

/// Plan grouping `ids` of `graph` into a file that the new node `nodeId` refers to as `reference`
/// (the file lives in `fileFolder`). Every wire crossing the selection becomes an exposed port (one
/// input per outside output feeding the selection); `parameters` (node, parameter) are exposed, named
/// as the parameter (node_parameter when two share a name). Throws std::invalid_argument with the
/// reason when the selection cannot be grouped.
GroupPlan planGroup(const GraphSpec& graph, const std::vector<std::string>& ids, const std::string& nodeId, const std::string& reference,
                    const std::vector<Endpoint>& parameters, const std::filesystem::path& fileFolder, const OperatorRegistry& registry);

/// A subgraph node inlined: the nodes and wires that replace it. [value type]
struct UngroupPlan {
    std::vector<NodeSpec> nodes;
    std::vector<EdgeSpec> edges;  ///< inner wires, then the node's outer wires rerouted to the inner ports
};

/// Plan inlining subgraph node `nodeId` of `graph`, whose file is `file` (as loaded, with its
/// folder). Inner ids that are `taken` get a suffix; the node's parameters replace the exposed inner
/// ones; positions are placed relative to the node. Throws GraphException if the interface is malformed.
UngroupPlan planUngroup(const GraphSpec& graph, const std::string& nodeId, const GraphSpec& file, const std::set<std::string>& taken,
                        const OperatorRegistry& registry);

}  // namespace isochron::ui
