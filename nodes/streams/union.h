// streams.union: order-agnostic union of several streams (out-of-order processing, Li et al. 2008).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "streams.union".
OperatorDescriptor unionDescriptor();

}  // namespace isochron
