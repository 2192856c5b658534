// Copy and paste: a selection travels as a graph file of its own (same format, same fields), so it
// can be pasted into another window, or into a text editor and back. No Qt.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/graph/graph_spec.h"

namespace isochron::ui {

/// Nodes and the edges among them, ready to be added to a graph. [value type]
struct GraphFragment {
    std::vector<NodeSpec> nodes;
    std::vector<EdgeSpec> edges;
};

/// The nodes `nodeIds` and the edges whose both ends are among them, as graph-file JSON text.
std::string copyFragment(const GraphSpec& graph, const std::vector<std::string>& nodeIds);

/// Parse fragment text. Ids that are in `taken` get a fresh suffix (edges follow them); when `at`
/// is given, positions shift so the fragment's top-left corner lands there. Throws
/// GraphException if the text is not a graph file.
GraphFragment pasteFragment(const std::string& text, const std::set<std::string>& taken, std::optional<NodePosition> at);

/// `base` if free, else base_2, base_3, ... (a trailing _N on `base` is replaced, not extended).
std::string uniqueNodeId(const std::string& base, const std::set<std::string>& taken);

}  // namespace isochron::ui
