// Runs that can never end by themselves. `isochron-run --check` names them before a long run shows
// it: a source that produces without end (a generator of duration 0 filling a file), and a loop fed
// by a source that nothing on it lets drain (an item that enters it circulates forever: the
// scheduler's drain never finishes, and memory grows when a node on it fans out). Both only end when
// stopped.
// What is endless is what operators declare (OperatorDescriptor::endlessBecause, passesEveryItem).
// A source that declares nothing is assumed to end. A loop is decided conservatively: it drains only
// when one of its nodes declares that it may drop items (passesEveryItem false for its parameters);
// when every node declares that it passes each item on, the loop never drains; when some declare
// nothing, it may never drain, and is warned about as such (a loop with no node that drops or holds
// back items, such as math.add feeding its own input, also computes what the scheduler's delivery
// order makes of it).
#pragma once

#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/validated_graph.h"

namespace isochron {

/// One warning per cause, located on a node: each endless source (naming the files it fills
/// downstream), and each loop reached by a source with no node that declares it may drop items (on
/// the loop's first node in graph order, naming its nodes and those that declare nothing). Empty for a graph that ends by itself as far as its operators
/// say. Walks the graph with explicit stacks (any size). [setup thread]
std::vector<GraphError> endlessRunWarnings(const ValidatedGraph& graph);

}  // namespace isochron
