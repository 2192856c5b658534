// spectral.spectral_flux: how much a spectrum grew since the previous frame, one score per frame
// (an onset detection function).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor spectralFluxDescriptor();

}  // namespace isochron
