// Validation step: what every wire of a resolved graph carries (channel labels, sensor positions),
// worked out from the sources downstream, and the parameters nodes take from it (adoptChannels).
#pragma once

#include <set>
#include <vector>

#include "engine/graph/graph_error.h"
#include "engine/graph/stop_poll.h"
#include "engine/graph/validated_graph.h"

namespace isochron {

/// Fill every node's inputChannels and outputChannels in `graph` (edges resolved, types settled),
/// nodes in an order where feeders come first (nodes on a loop: after the rest, with what is known by
/// then), and let each node adopt parameters from its inputs. Nodes in `unresolved` (their parameters
/// could not be derived), nodes whose hooks report a problem and every node downstream of them carry
/// unknown channels and adopt nothing (no follow-on errors). Problems are appended to `errors`. [setup thread]
/// `stop` is asked once per node (a stop request makes it throw StartStopped).
void assignChannelLayouts(ValidatedGraph& graph, const std::set<int>& unresolved, std::vector<GraphError>& errors, StopPoller& stop);

}  // namespace isochron
