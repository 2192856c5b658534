// What starting the nodes would say, asked before any starts: `isochron-run --check` says what the
// run would (a sound file holding only a header, a capture device that is missing) without opening
// a stream or writing a file. Only operators that can tell without starting answer
// (OperatorDescriptor::checkStart); the others are taken to start.
#pragma once

#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/validated_graph.h"

namespace isochron {

/// The warnings starting `graph`'s nodes would give, each on its node. Throws GraphException with
/// "cannot start: ..." on every node whose start would refuse, as the Engine's constructor says it. [setup thread]
std::vector<GraphError> startWarnings(const ValidatedGraph& graph);

}  // namespace isochron
