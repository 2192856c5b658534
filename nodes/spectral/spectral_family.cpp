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
    registry.add(keepingChannels(fftDescriptor()));
    registry.add(keepingChannels(magnitudeDescriptor()));
    registry.add(keepingChannels(weightedBandSumDescriptor()));
    registry.add(keepingChannels(haarWaveletDescriptor()));
    registry.add(keepingChannels(stftDescriptor()));
    registry.add(keepingChannels(istftDescriptor()));
    registry.add(keepingChannels(spectrogramDescriptor()));
    registry.add(keepingChannels(melBandsDescriptor()));
    registry.add(keepingChannels(thirdOctaveBandsDescriptor()));
    registry.add(keepingChannels(spectralFluxDescriptor()));
}

}  // namespace isochron
