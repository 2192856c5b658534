// spatial.triangulate_joined: a source's position from one event carrying several arrays'
// bearings (the pairs of a band join), in any arrival order.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "spatial.triangulate_joined".
OperatorDescriptor triangulateJoinedDescriptor();

}  // namespace isochron
