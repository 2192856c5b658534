// Band filterbanks over the bins of a one-sided power spectrum: mel bands (triangles on the mel
// scale, as librosa.filters.mel builds them) and the base-10 one-third-octave bands of IEC 61260-1.
//
// Bin k of an N-point spectrum at rate fs is at k fs / N Hz. A band is a run of weighted bins; its
// value is sum_k weight_k P_k.
//   mel: band i of B is the triangle rising from mel point i to i+1 and falling to i+2, the B + 2 points
//        evenly spaced in mel between low and high; "slaney" scale is linear (3 mel per 200 Hz) below
//        1 kHz and logarithmic above (27 mel per factor 6.4), "htk" is 2595 log10(1 + f / 700). With
//        area normalisation each triangle is scaled by 2 / (its width in Hz) (librosa's norm="slaney").
//   third octave: band m has the exact centre 1000 * 10^(m/10) Hz and edges centre * 10^(-+1/20)
//        (IEC 61260-1, base 10); a bin stands for [f - fs/2N, f + fs/2N) and weighs the fraction of
//        that interval inside the band, so adjacent bands share bins without counting them twice.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace isochron {

/// One band: its frequencies and the weights of bins firstBin, firstBin + 1, ... [value type]
struct SpectralBand {
    double lowHz = 0.0;
    double centreHz = 0.0;
    double highHz = 0.0;
    std::int64_t firstBin = 0;
    std::vector<float> weights;
};

/// The mel scales.
enum class MelScale { Slaney, Htk };

/// Mels of `hz` on `scale`. [no allocation]
double hzToMel(double hz, MelScale scale);
/// The inverse of hzToMel. [no allocation]
double melToHz(double mel, MelScale scale);

/// `count` mel bands between lowHz and highHz (0 <= lowHz < highHz <= rate / 2) for an `fftSize`-point
/// spectrum at `rateHz`. Throws std::invalid_argument for an impossible band. [allocates]
std::vector<SpectralBand> melFilterbank(int count, double lowHz, double highHz, double rateHz, std::int64_t fftSize,
                                        MelScale scale, bool areaNormalized);

/// The one-third-octave bands whose exact centres lie in [lowHz, highHz] and whose upper edge is below
/// Nyquist, for an `fftSize`-point spectrum at `rateHz`. Throws std::invalid_argument when none does. [allocates]
std::vector<SpectralBand> thirdOctaveFilterbank(double lowHz, double highHz, double rateHz, std::int64_t fftSize);

/// Each band's value of `power` (one value per bin) into `values` (one per band). [no allocation]
void applyFilterbank(std::span<const SpectralBand> bands, std::span<const float> power, std::span<float> values);

}  // namespace isochron
