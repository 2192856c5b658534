// level.noise_gate: attenuates the signal while its level stays below a threshold (hysteresis, hold, attack/release).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor noiseGateDescriptor();

}  // namespace isochron
