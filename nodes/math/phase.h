// math.phase: the phase (argument) of each complex bin, in radians; spectral.magnitude gives the magnitude.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor phaseDescriptor();

}  // namespace isochron
