// Directed cycles of a graph: Tarjan's strongly connected components with an explicit stack of
// frames, so a graph's depth (a 100 000-node chain) never becomes the call stack's. The engine marks
// the nodes a delivery may re-enter with it; `isochron-run --check` finds loops that never drain.
#pragma once

#include <vector>

namespace isochron {

/// For each node of the graph whose node v has the edges v -> successors[v][i]: the index of the
/// cycle it lies on (nodes of one strongly connected component share it; a self-loop is a cycle), or
/// -1 when it lies on none. Cycle indices count from 0 in the order their components close. [any thread]
std::vector<int> cycleOfEachNode(const std::vector<std::vector<int>>& successors);

}  // namespace isochron
