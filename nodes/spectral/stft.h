// spectral.stft: short-time Fourier transform: a signal cut into overlapping windowed frames, one
// spectrum per frame, edges padded so that spectral.istft gives the signal back exactly.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor stftDescriptor();

}  // namespace isochron
