// Subgraphs: a node that stands for another graph file ({"id": "filt", "subgraph": "band.isograph.json"}
// instead of "type"). That file's "interface" field names the inner ports and parameters it exposes:
//   "interface": {"inputs": {"in": "lowpass.in"}, "outputs": {"out": "gain.out"},
//                 "params": {"cutoff": "lowpass.cutoff"}}
// An exposed input may feed several inner inputs (["a.in", "b.in"]). expandSubgraphs() inlines every
// subgraph node, at any nesting depth, into the flat graph the engine runs: inner ids get the node's id as a
// prefix ("filt/lowpass"), edges to the node's ports go to the inner ports they expose, and the node's
// parameters override the exposed inner ones (the inner value is the default). resolveGraph() expands
// before it validates, so schedulers, the runner and telemetry see only ordinary operators.
// See docs/graph-format.md ("Subgraphs").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_spec.h"
#include "engine/operators/registry.h"

namespace isochron {

/// Node field naming the graph file a subgraph node stands for (relative to the referring file).
inline constexpr const char* kSubgraphField = "subgraph";
/// Top-level field of a graph file that declares what it exposes when used as a subgraph.
inline constexpr const char* kInterfaceField = "interface";

/// A node id and a port or parameter name. [value type]
struct Endpoint {
    std::string node, name;
    bool operator==(const Endpoint&) const = default;
};

/// One exposed port or parameter: its name outside and the inner endpoints it stands for (an input
/// may feed several; an output or a parameter has exactly one). [value type]
struct ExposedEndpoint {
    std::string name;
    std::vector<Endpoint> inner;
};

/// What a graph file exposes when used as a subgraph, each list sorted by name. [value type]
struct SubgraphInterface {
    std::vector<ExposedEndpoint> inputs, outputs, params;
};

/// Whether `node` stands for a graph file rather than an operator.
bool isSubgraphNode(const NodeSpec& node);
/// The graph file a subgraph node stands for, as written ("" for an operator node).
std::string subgraphReference(const NodeSpec& node);
/// The file a subgraph node of `graph` refers to, resolved from `graph`'s folder.
std::filesystem::path subgraphFile(const GraphSpec& graph, const NodeSpec& node);

/// The "interface" field of `graph` (empty when it has none); malformed entries are reported on
/// `node` with field "interface.inputs.NAME" and the like.
SubgraphInterface parseInterface(const GraphSpec& graph, const std::string& node, std::vector<GraphError>& errors);
/// The "interface" field's JSON for `interface` (inputs feeding one port are written as a string).
nlohmann::json interfaceToJson(const SubgraphInterface& interface);

/// One subgraph node of the expanded graph, with its interface in flat ids ("filt/lowpass"). [value type]
struct ExpandedSubgraph {
    std::filesystem::path file;
    SubgraphInterface flat;
    /// Each exposed parameter's value inside the file (the default when the node does not set it);
    /// absent when the inner node leaves it at the operator's default.
    std::map<std::string, nlohmann::json> paramDefaults;
};

/// A graph with every subgraph inlined, and what each top-level subgraph node became. [value type]
struct ExpandedGraph {
    GraphSpec flat;
    std::map<std::string, ExpandedSubgraph> subgraphs;  ///< by node id of the original graph
    /// Every subgraph file read, at any depth, canonical: a run must not overwrite them.
    std::vector<std::filesystem::path> files;
};

/// A graph whose expansion would have more nodes than this is refused before it is expanded (a
/// file used twice per level doubles the count with each level). Nesting depth itself is not
/// limited: files are walked with explicit stacks, not by recursion.
inline constexpr std::uint64_t kMaxExpandedNodes = 1'000'000;

/// Inline every subgraph node of `graph` and of the files it nests, reading each file once. Problems (a
/// missing or unreadable file, a cycle of files referring to each other, more than kMaxExpandedNodes
/// nodes, an unknown exposed port or parameter) are appended to
/// `errors`, located on the subgraph node's flat id; a subgraph that cannot be read is left out
/// with its edges. Relative path parameters inside a subgraph file are resolved from its folder.
ExpandedGraph expandSubgraphs(const GraphSpec& graph, const OperatorRegistry& registry, std::vector<GraphError>& errors);

}  // namespace isochron
