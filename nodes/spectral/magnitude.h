// spectral.magnitude: the magnitude of each complex bin (linear, power or dB).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor magnitudeDescriptor();

}  // namespace isochron
