// parallel.merge: joins the q sub-streams of a parallel.split back into one stream, in time order
// (dropping signal samples a replica sent twice) or as they come.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "parallel.merge".
OperatorDescriptor parallelMergeDescriptor();

}  // namespace isochron
