// What the engine's validator says about the graph being edited: every node's ports with their
// resolved types (repeated ports expanded, pass-through types followed along edges), every
// problem, located by node, and the warnings isochron-run --check gives for a valid graph. Subgraph
// nodes show their exposed ports, typed like the inner ports they stand for, and the problems inside
// them. Recomputed after each structural edit. No Qt.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/graph/subgraph.h"
#include "engine/graph/validated_graph.h"

namespace isochron::ui {

/// One port as the canvas shows it. [value type]
struct PortView {
    std::string name;
    std::string type;  ///< "signal<f32>", "scalar", "any", ... as the validator resolved it
    std::string doc;
    bool optional = false;
    bool concrete = false;  ///< false while the type still depends on an unconnected input
    std::string channels;   ///< what the wire carries where known ("ch 0 (0.1, 0.1, 0 m)"), else empty
};

/// One node's resolved ports and problems. [value type]
struct NodeResolution {
    bool known = false;  ///< the operator type exists
    std::vector<PortView> inputs;
    std::vector<PortView> outputs;
    std::vector<GraphError> problems;
};

/// The resolution of a whole graph. [value type]
class GraphResolution {
public:
    /// Resolve `graph` with `registry`'s operators (reads file headers for parameters derived from files).
    static GraphResolution of(const GraphSpec& graph, const OperatorRegistry& registry);

    /// The node's resolution, or null if it has none (an id not in the graph).
    const NodeResolution* node(std::string_view id) const;
    /// Index of a port among the node's inputs or outputs; a bus end "group*" maps to its first port. -1 if none.
    int portIndex(std::string_view nodeId, std::string_view port, bool output) const;
    /// How many ports a bus end "group*" stands for among the node's inputs or outputs (0 if none).
    int busWidth(std::string_view nodeId, std::string_view busPort, bool output) const;
    /// Every problem, in the validator's order.
    const std::vector<GraphError>& problems() const { return problems_; }
    bool valid() const { return problems_.empty(); }
    /// What `isochron-run --check` warns about a valid graph (endlessRunWarnings: an endless source, a
    /// loop that never drains), then what it refuses about the graph's partitions under mpirun (a cycle
    /// between them, custom items between ranks: F5 runs the graph whole, so these only warn); empty
    /// while the graph has problems, as --check says nothing more then.
    const std::vector<GraphError>& warnings() const { return warnings_; }
    /// The graph with its subgraphs inlined, and each subgraph node's interface in flat ids.
    const ExpandedGraph& expanded() const { return expanded_; }
    /// Where an output port, an input port or a parameter of a node is in the expanded graph: inside
    /// the subgraph for an exposed one (an input's first inner port), the same endpoint for an operator
    /// node (what probes, live edits and the wires' watermarks address).
    Endpoint flatOutput(const Endpoint& endpoint) const;
    Endpoint flatInput(const Endpoint& endpoint) const;
    Endpoint flatParameter(const Endpoint& endpoint) const;

private:
    ExpandedGraph expanded_;
    std::map<std::string, NodeResolution, std::less<>> nodes_;
    std::vector<GraphError> problems_;
    std::vector<GraphError> warnings_;
};

}  // namespace isochron::ui
