// spectral.haar_wavelet: the orthonormal multi-level Haar transform of each window, and the energy of
// each detail band (PIPELINE-style leak detection).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor haarWaveletDescriptor();

}  // namespace isochron
