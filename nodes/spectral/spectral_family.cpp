#include "nodes/families.h"
#include "nodes/spectral/fft.h"
#include "nodes/spectral/haar_wavelet.h"
#include "nodes/spectral/istft.h"
#include "nodes/spectral/magnitude.h"
#include "nodes/spectral/mel_bands.h"
#include "nodes/spectral/spectral_flux.h"
#include "nodes/spectral/spectrogram.h"
#include "nodes/spectral/stft.h"
#include "nodes/spectral/third_octave_bands.h"
#include "nodes/spectral/weighted_band_sum.h"

namespace isochron {

void registerSpectralNodes(OperatorRegistry& registry) {
    registry.add(fftDescriptor());
    registry.add(magnitudeDescriptor());
    registry.add(weightedBandSumDescriptor());
    registry.add(haarWaveletDescriptor());
    registry.add(stftDescriptor());
    registry.add(istftDescriptor());
    registry.add(spectrogramDescriptor());
    registry.add(melBandsDescriptor());
    registry.add(thirdOctaveBandsDescriptor());
    registry.add(spectralFluxDescriptor());
}

}  // namespace isochron
