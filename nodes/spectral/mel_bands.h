// spectral.mel_bands: the energy of each mel band of a power spectrum (triangular filters).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor melBandsDescriptor();

}  // namespace isochron
