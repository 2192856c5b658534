// spectral.istft: inverse short-time Fourier transform: spectra overlap-added back into a signal.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor istftDescriptor();

}  // namespace isochron
