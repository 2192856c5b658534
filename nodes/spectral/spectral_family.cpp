#include "nodes/families.h"
#include "nodes/spectral/fft.h"
#include "nodes/spectral/haar_wavelet.h"
#include "nodes/spectral/magnitude.h"
#include "nodes/spectral/weighted_band_sum.h"

namespace isochron {

void registerSpectralNodes(OperatorRegistry& registry) {
    registry.add(fftDescriptor());
    registry.add(magnitudeDescriptor());
    registry.add(weightedBandSumDescriptor());
    registry.add(haarWaveletDescriptor());
}

}  // namespace isochron
