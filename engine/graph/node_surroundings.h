// What validation tells a node about where it sits in its graph: the graph, the node and operator
// feeding each input, what each input carries. A recorder stores it with what it records (issue 13:
// "the graph and operator that produced it"). Operator types that want it register a hook here (at
// registration, beside their descriptor); validation calls it once the graph is wired and its
// channels are known, for every node of that type.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron {

/// Where a node sits in its graph. [valid during the call]
struct NodeSurroundings {
    /// The node feeding one input, and its operator type; both empty when the input is unconnected.
    struct Feeder {
        std::string node;
        std::string type;
    };
    std::string graph;                    ///< the graph's file name, else its "name" field, else empty
    std::string node;                     ///< the node's id
    std::vector<ResolvedPort> inputs;     ///< the node's resolved inputs
    std::vector<Feeder> feeders;          ///< one per resolved input, in order
    std::vector<ChannelLayout> channels;  ///< what each resolved input carries (empty: unknown)
};

/// Fills parameters of a node from where it sits; throws ParameterError to report a problem on the node. [setup thread]
using SurroundingsHook = std::function<void(ParamSet& params, const NodeSurroundings& surroundings)>;

/// Has validation call `hook` for every node of operator type `typeName` (one hook per type; a later
/// one replaces it). [setup thread, while operators register]
void adoptSurroundings(const std::string& typeName, SurroundingsHook hook);

/// The hook of operator type `typeName`, or null. [setup thread]
const SurroundingsHook* surroundingsHook(std::string_view typeName);

}  // namespace isochron
