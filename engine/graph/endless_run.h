// Runs that can never end by themselves. `isochron-run --check` names them before a long run shows
// it: a source that produces without end (a generator of duration 0 filling a file), and a loop whose
// every node passes each item on (an item that enters it circulates forever: the scheduler's drain
// never finishes, and memory grows when a node on it fans out). Both only end when stopped.
// What is endless is what operators declare (OperatorDescriptor::endlessBecause, passesEveryItem);
// an operator that declares nothing is assumed to end.
#pragma once

#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/validated_graph.h"

namespace isochron {

/// One warning per cause, located on a node: each endless source (naming the files it fills
/// downstream), and each loop reached by a source whose every node passes each item on (on the
/// loop's first node in graph order). Empty for a graph that ends by itself as far as its operators
/// say. Walks the graph with explicit stacks (any size). [setup thread]
std::vector<GraphError> endlessRunWarnings(const ValidatedGraph& graph);

}  // namespace isochron
