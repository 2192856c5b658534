// streams.ordered_merge: the in-order baseline: merges (or sorts) streams into time order by buffering.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "streams.ordered_merge".
OperatorDescriptor orderedMergeDescriptor();

}  // namespace isochron
