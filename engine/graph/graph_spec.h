// The graph as written in a *.isograph.json file: nodes, edges, scheduler choice, editor positions.
// It is data only (parameters stay as written); validateGraph() turns it into something runnable.
// See docs/graph-format.md.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace isochron {

/// Version tag every graph file carries in its "format" field.
inline constexpr const char* kGraphFormat = "isochron-graph/1";

/// Canvas position of a node, in editor units.
struct NodePosition {
    double x = 0;
    double y = 0;
    bool operator==(const NodePosition&) const = default;
};

/// One node: its id, operator type, parameters as written, and editor data. [value type]
struct NodeSpec {
    std::string id;
    std::string type;
    std::map<std::string, nlohmann::json> params;
    std::optional<NodePosition> position;
    nlohmann::json extra = nlohmann::json::object();  ///< other fields ("label", "qos", ...), kept verbatim
    /// Which rank runs the node under mpirun (docs/scale-out.md); absent means partition 0.
    std::optional<int> partition;
};

/// One edge from an output port to an input port. [value type]
struct EdgeSpec {
    std::string fromNode, fromPort, toNode, toPort;
    std::string from() const { return fromNode + "." + fromPort; }
    std::string to() const { return toNode + "." + toPort; }
    bool operator==(const EdgeSpec&) const = default;
};

/// Which scheduler runs the graph, and its parameters. [value type]
struct SchedulerSpec {
    std::string name = "df";
    std::map<std::string, nlohmann::json> params;
};

/// A whole graph file. [value type]
struct GraphSpec {
    std::string name;
    std::string description;
    SchedulerSpec scheduler;
    std::vector<NodeSpec> nodes;
    std::vector<EdgeSpec> edges;
    nlohmann::json extra = nlohmann::json::object();  ///< other top-level fields, kept verbatim
    /// Where relative "path" parameters are resolved from: the file's folder (not saved).
    std::filesystem::path baseDirectory;
    /// The name of the file it was read from, e.g. "watch.isograph.json" (not saved); empty when built in memory.
    std::string fileName;

    NodeSpec* findNode(std::string_view id);
    const NodeSpec* findNode(std::string_view id) const;
};

}  // namespace isochron
