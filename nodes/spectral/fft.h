// spectral.fft: the real-to-complex FFT of each window (one input item = one window).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor fftDescriptor();

}  // namespace isochron
