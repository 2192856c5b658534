#include "nodes/spectral/band_filterbank.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace isochron {
namespace {

// Slaney's mel scale (Auditory Toolbox): linear below kBreakHz, logarithmic above.
constexpr double kSlaneyHzPerMel = 200.0 / 3.0;
constexpr double kBreakHz = 1000.0;
constexpr double kBreakMel = kBreakHz / kSlaneyHzPerMel;  // 15
const double kLogStepPerMel = std::log(6.4) / 27.0;

void requireBand(double lowHz, double highHz, double rateHz, std::int64_t fftSize) {
    if (!(rateHz > 0.0) || fftSize < 2) throw std::invalid_argument("a filterbank needs a positive rate and at least 2 FFT points");
    if (!(lowHz >= 0.0) || !(highHz > lowHz) || highHz > rateHz / 2.0 + 1e-9) {
        throw std::invalid_argument("the band " + std::to_string(lowHz) + " .. " + std::to_string(highHz) +
                                    " Hz is not inside 0 .. Nyquist (" + std::to_string(rateHz / 2.0) + " Hz)");
    }
}

}  // namespace

double hzToMel(double hz, MelScale scale) {
    if (scale == MelScale::Htk) return 2595.0 * std::log10(1.0 + hz / 700.0);
    if (hz < kBreakHz) return hz / kSlaneyHzPerMel;
    return kBreakMel + std::log(hz / kBreakHz) / kLogStepPerMel;
}

double melToHz(double mel, MelScale scale) {
    if (scale == MelScale::Htk) return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
    if (mel < kBreakMel) return mel * kSlaneyHzPerMel;
    return kBreakHz * std::exp(kLogStepPerMel * (mel - kBreakMel));
}

std::vector<SpectralBand> melFilterbank(int count, double lowHz, double highHz, double rateHz, std::int64_t fftSize,
                                        MelScale scale, bool areaNormalized) {
    requireBand(lowHz, highHz, rateHz, fftSize);
    if (count < 1) throw std::invalid_argument("a mel filterbank needs at least one band");
    const double lowMel = hzToMel(lowHz, scale);
    const double highMel = hzToMel(highHz, scale);
    std::vector<double> pointsHz(static_cast<std::size_t>(count) + 2);
    for (std::size_t i = 0; i < pointsHz.size(); ++i) {
        pointsHz[i] = melToHz(lowMel + (highMel - lowMel) * static_cast<double>(i) / static_cast<double>(count + 1), scale);
    }
    const std::int64_t binCount = fftSize / 2 + 1;
    const double hzPerBin = rateHz / static_cast<double>(fftSize);
    std::vector<SpectralBand> bands(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < bands.size(); ++i) {
        SpectralBand& band = bands[i];
        band.lowHz = pointsHz[i];
        band.centreHz = pointsHz[i + 1];
        band.highHz = pointsHz[i + 2];
        const double gain = areaNormalized ? 2.0 / (band.highHz - band.lowHz) : 1.0;
        band.firstBin = -1;
        for (std::int64_t k = 0; k < binCount; ++k) {
            const double hz = static_cast<double>(k) * hzPerBin;
            const double rising = (hz - band.lowHz) / (band.centreHz - band.lowHz);
            const double falling = (band.highHz - hz) / (band.highHz - band.centreHz);
            const double weight = std::max(0.0, std::min(rising, falling)) * gain;
            if (weight <= 0.0) {
                if (band.firstBin >= 0) break;
                continue;
            }
            if (band.firstBin < 0) band.firstBin = k;
            band.weights.push_back(static_cast<float>(weight));
        }
        if (band.firstBin < 0) band.firstBin = 0;  // narrower than a bin: an empty band (reads 0)
    }
    return bands;
}

std::vector<SpectralBand> thirdOctaveFilterbank(double lowHz, double highHz, double rateHz, std::int64_t fftSize) {
    requireBand(lowHz, std::min(highHz, rateHz / 2.0), rateHz, fftSize);
    const double nyquist = rateHz / 2.0;
    const double hzPerBin = rateHz / static_cast<double>(fftSize);
    const std::int64_t binCount = fftSize / 2 + 1;
    const double edgeFactor = std::pow(10.0, 1.0 / 20.0);
    std::vector<SpectralBand> bands;
    // Band numbers m with 1000 * 10^(m/10) in [lowHz, highHz]; the tolerance keeps exact limits in.
    const int first = static_cast<int>(std::ceil(10.0 * std::log10(std::max(lowHz, 1e-3) / 1000.0) - 1e-9));
    const int last = static_cast<int>(std::floor(10.0 * std::log10(highHz / 1000.0) + 1e-9));
    for (int m = first; m <= last; ++m) {
        SpectralBand band;
        band.centreHz = 1000.0 * std::pow(10.0, m / 10.0);
        band.lowHz = band.centreHz / edgeFactor;
        band.highHz = band.centreHz * edgeFactor;
        if (band.highHz > nyquist) break;
        const std::int64_t firstBin = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(band.lowHz / hzPerBin + 0.5)));
        const std::int64_t lastBin = std::min(binCount - 1, static_cast<std::int64_t>(std::floor(band.highHz / hzPerBin + 0.5)));
        band.firstBin = firstBin;
        for (std::int64_t k = firstBin; k <= lastBin; ++k) {
            const double binLow = (static_cast<double>(k) - 0.5) * hzPerBin;
            const double binHigh = (static_cast<double>(k) + 0.5) * hzPerBin;
            const double inside = std::min(binHigh, band.highHz) - std::max(binLow, band.lowHz);
            band.weights.push_back(static_cast<float>(std::max(0.0, inside) / hzPerBin));
        }
        bands.push_back(std::move(band));
    }
    if (bands.empty()) {
        throw std::invalid_argument("no one-third-octave band lies between " + std::to_string(lowHz) + " and " + std::to_string(highHz) +
                                    " Hz below Nyquist (" + std::to_string(nyquist) + " Hz)");
    }
    return bands;
}

void applyFilterbank(std::span<const SpectralBand> bands, std::span<const float> power, std::span<float> values) {
    for (std::size_t b = 0; b < bands.size(); ++b) {
        const SpectralBand& band = bands[b];
        double sum = 0.0;
        const float* bin = power.data() + band.firstBin;
        for (float weight : band.weights) sum += static_cast<double>(weight) * *bin++;
        values[b] = static_cast<float>(sum);
    }
}

}  // namespace isochron
