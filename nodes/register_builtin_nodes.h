// The built-in operators, registered through the same registry API plugins use.
#pragma once

#include "engine/operators/registry.h"

namespace isochron {

/// Add every built-in operator type to `registry`. [setup thread]
void registerBuiltinNodes(OperatorRegistry& registry);

/// A registry holding the built-ins, created on first use. [setup thread]
OperatorRegistry& builtinRegistry();

}  // namespace isochron
