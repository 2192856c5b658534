// spatial.bearing_tracker: keeps bearings of several sources apart over time (Kalman filter per track).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor bearingTrackerDescriptor();

}  // namespace isochron
