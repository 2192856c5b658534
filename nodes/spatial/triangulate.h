// spatial.triangulate: a source's position from the bearings of two or more arrays at known places.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor triangulateDescriptor();

}  // namespace isochron
