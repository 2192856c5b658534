// Steered response of a microphone array over a grid of directions, in the frequency domain.
//
// An event's channels are cut into blocks of N samples (hop N/2, Hann window, the last block
// aligned to the event's end; an event shorter than a block is zero-padded into one), transformed,
// and summed into cross-spectral matrices R(k) = sum_blocks X(k) X(k)^H for the bins k whose
// frequency lies in the band (0 Hz and Nyquist excluded). The steered power towards direction u,
// with tau_m(u) mic m's far-field delay (see array_geometry.h), is
//   P(u) = sum_k sum_{m,n} Rw_mn(k) e^{i w_k (tau_m(u) - tau_n(u))}
// where Rw is R after a per-bin weighting:
//   Phat                 Rw_mn = R_mn / |R_mn| off the diagonal (SRP-PHAT; the diagonal is dropped)
//   BeamPower            Rw = R / sum_k tr R(k)        (AML: delay-and-sum beam power, energy-weighted bins)
//   NormalizedBeamPower  Rw = R / (K tr R(k))          (AML with every bin weighing the same)
// Each pair's term, a function of the lag tau_m - tau_n only, is tabulated once per event by one
// inverse FFT zero-padded 16 times (lag step 1/16 sample) and read by linear interpolation for every
// direction, so the grid's size barely matters. The maps are scaled to a fixed range:
//   Phat       mean pairwise PHAT coherence, in [-1, 1]; 1 = every pair aligned in every bin
//   BeamPower  beam power / the largest possible (rank-one R aligned with u), in [0, 1]
// The best grid direction is refined by a parabola through its neighbours in azimuth and elevation.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/signal/sigseg.h"
#include "nodes/spatial/array_geometry.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron {

/// Look directions: azimuths 0 <= az < 360 every `azimuthStepDegrees`, elevations from
/// `elevationMinDegrees` to `elevationMaxDegrees` every `elevationStepDegrees`. [value type]
struct DirectionGrid {
    double azimuthStepDegrees = 1.0;    ///< (0, 90]
    double elevationMinDegrees = 0.0;   ///< [-90, 90]
    double elevationMaxDegrees = 0.0;   ///< [elevationMinDegrees, 90]
    double elevationStepDegrees = 5.0;  ///< (0, 90]

    /// Azimuths on the grid: 360 / step, rounded (at least 1).
    int azimuthCount() const;
    /// Elevations on the grid, from the minimum up to the maximum (at least 1).
    int elevationCount() const;
    /// Azimuth `index` in degrees (the step as given; SteeredResponse stores 360 / azimuthCount()).
    double azimuthDegrees(int index) const { return index * azimuthStepDegrees; }
    /// Elevation `index` in degrees.
    double elevationDegrees(int index) const { return elevationMinDegrees + index * elevationStepDegrees; }
};

/// How cross-spectra are weighted before steering (see the file comment).
enum class SpectralWeighting { Phat, BeamPower, NormalizedBeamPower };

/// What the steered response says about one event. [value type]
struct DirectionEstimate {
    double azimuthDegrees = 0.0;    ///< [0, 360), counter-clockwise from the front
    double elevationDegrees = 0.0;  ///< [-90, 90], up positive
    double peak = 0.0;              ///< the scaled map's value at the best grid direction
    double mean = 0.0;              ///< the scaled map's mean over the grid
    /// (peak - mean) / (1 - mean), clamped to [0, 1]: 0 for a flat map, 1 when the peak reaches the
    /// map's largest possible value (a single coherent plane wave).
    double confidence = 0.0;
};

/// The block spectra, cross-spectra, lag tables and map of one array. [engine thread]
class SteeredResponse {
public:
    struct Settings {
        std::int64_t blockSize = 1024;  ///< N, samples per FFT block, >= 16
        double bandLowHz = 0.0;         ///< lowest bin frequency used (inclusive)
        double bandHighHz = -1.0;       ///< highest bin frequency used (inclusive); negative = Nyquist
        DirectionGrid grid;
        SpectralWeighting weighting = SpectralWeighting::Phat;
    };

    /// Plan the transforms and size every buffer. [setup, allocates]
    SteeredResponse(const ArrayGeometry& geometry, double speedOfSound, const Settings& settings);

    /// The estimate for one event sampled at `rateHz`; `channels[m]` is mic m, all the same length.
    /// Throws std::invalid_argument when the band holds no bin at this rate, or when a block cannot
    /// hold the array's largest delay with room to spare (N < 4 x the largest lag). [no allocation]
    DirectionEstimate estimate(std::span<const std::span<const float>> channels, double rateHz);

private:
    void accumulateCrossSpectra(std::span<const std::span<const float>> channels, std::int64_t firstBin,
                                std::int64_t lastBin);
    void addBlock(std::span<const std::span<const float>> channels, std::int64_t start, std::int64_t firstBin,
                  std::int64_t lastBin);
    /// Weighted pair spectra -> lag tables; returns the constant (diagonal) part of the map.
    double tabulatePairs(std::int64_t firstBin, std::int64_t lastBin);
    double lagTableValue(std::size_t pair, double lagSamples) const;
    DirectionEstimate findPeak() const;

    Settings settings_;
    int micCount_ = 0;
    double largestDelaySeconds_ = 0.0;  // the array's aperture over the speed of sound
    std::vector<std::pair<int, int>> pairs_;         // (m, n), m < n
    std::vector<double> pairDelaySeconds_;           // [direction][pair]: tau_m - tau_n
    std::vector<float> window_;                      // Hann, N samples
    const RealForwardPlan* forward_ = nullptr;       // N
    const RealInversePlan* inverse_ = nullptr;       // 16 N
    SigSeg<float> blockInput_;                       // N windowed samples (64-byte aligned)
    std::vector<SigSeg<std::complex<float>>> spectra_;  // [mic]: N/2 + 1 bins of the current block
    std::vector<std::complex<float>*> spectrumRows_;    // [mic]: spectra_[mic]'s samples
    std::vector<std::complex<double>> crossSpectra_;    // [bin - firstBin][m * M + n], m <= n used
    SigSeg<std::complex<float>> pairSpectrum_;       // 8 N + 1 bins: one pair's weighted spectrum
    SigSeg<float> lagTable_;                         // 16 N lags: the inverse transform's output
    std::vector<float> pairTables_;                  // [pair][16 N]
    std::vector<double> map_;                        // [direction]
};

}  // namespace isochron
