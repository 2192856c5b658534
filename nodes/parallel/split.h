// parallel.split: parasplit's routing function: splits one stream into q sub-streams for q replicas
// of an expensive subgraph (whole windows round-robin, events by key, or windows with overlap).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "parallel.split".
OperatorDescriptor parallelSplitDescriptor();

}  // namespace isochron
