// OperatorErrorInHook: an operator's failure whose message already names the hook it happened in,
// which need not be the call the engine is making. A sandboxed plugin's items are batched, so the
// process hook that crashed may be noticed while the engine finishes the node: its failure then names
// the plugin's hook only ("... died of Segmentation fault (signal 11) in its process hook"), without
// the engine's "(in finish)" that every other failure ends with.
#pragma once

#include <string>

#include "engine/operators/operator.h"

namespace isochron {

/// A failure of an operator's deactivate that fails its node (a plugin's, which the user must
/// hear of), where any other exception from deactivate is only a warning. [value type]
class OperatorStopFailure : public OperatorError {
public:
    using OperatorError::OperatorError;
};

/// An OperatorError naming its own hook: the engine adds no "(in <call>)". [value type]
class OperatorErrorInHook : public OperatorError {
public:
    using OperatorError::OperatorError;
};

}  // namespace isochron
