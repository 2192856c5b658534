// Steered response of a microphone array over a grid of directions, in the frequency domain.
//
// An event's cross-spectral matrices R(k) (cross_spectra.h) are formed for the bins k whose
// frequency lies in the band (0 Hz and Nyquist excluded). The steered power towards direction u,
// with tau_m(u) mic m's far-field delay (see array_geometry.h), is
//   P(u) = sum_k sum_{m,n} Rw_mn(k) e^{i w_k (tau_m(u) - tau_n(u))}
// where Rw is R after a per-bin weighting:
//   Phat                 Rw_mn = R_mn / |R_mn| off the diagonal (SRP-PHAT; the diagonal is dropped)
//   BeamPower            Rw = R / sum_k tr R(k)        (AML: delay-and-sum beam power, energy-weighted bins)
//   NormalizedBeamPower  Rw = R / (K tr R(k))          (AML with every bin weighing the same)
//   MusicSubspace        Rw = P_s(k) / (K M)           (wideband MUSIC: R's signal-subspace projector,
//                                                       signal_subspace.h)
// Each pair's term, a function of the lag tau_m - tau_n only, is tabulated once per event by one
// inverse FFT zero-padded 16 times (lag step 1/16 sample) and read by linear interpolation for every
// direction, so the grid's size barely matters. The maps are scaled to a fixed range:
//   Phat       mean pairwise PHAT coherence, in [-1, 1]; 1 = every pair aligned in every bin
//   BeamPower  beam power / the largest possible (rank-one R aligned with u), in [0, 1]
//   MusicSubspace  mean over bins of the fraction of a_k(u)'s energy in the signal subspace, in [0, 1]
// The best grid direction is refined by a parabola through its neighbours (direction_map.h).
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/signal/sigseg.h"
#include "nodes/spatial/array_geometry.h"
#include "nodes/spatial/cross_spectra.h"
#include "nodes/spatial/direction_map.h"
#include "nodes/spatial/signal_subspace.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron {

/// How cross-spectra are weighted before steering (see the file comment).
enum class SpectralWeighting { Phat, BeamPower, NormalizedBeamPower, MusicSubspace };

/// The block spectra, cross-spectra, lag tables and map of one array. [engine thread]
class SteeredResponse {
public:
    struct Settings {
        std::int64_t blockSize = 1024;  ///< N, samples per FFT block, >= 16
        double bandLowHz = 0.0;         ///< lowest bin frequency used (inclusive)
        double bandHighHz = -1.0;       ///< highest bin frequency used (inclusive); negative = Nyquist
        DirectionGrid grid;
        SpectralWeighting weighting = SpectralWeighting::Phat;
        int sources = 1;  ///< MusicSubspace: sources D in the signal subspace, 1 .. mics - 1
    };

    /// Plan the transforms and size every buffer. [setup, allocates]
    SteeredResponse(const ArrayGeometry& geometry, double speedOfSound, const Settings& settings);

    /// The estimate for one event sampled at `rateHz`; `channels[m]` is mic m, all the same length.
    /// Throws std::invalid_argument when the band holds no bin at this rate, or when a block cannot
    /// hold the array's largest delay with room to spare (N < 4 x the largest lag). [no allocation]
    DirectionEstimate estimate(std::span<const std::span<const float>> channels, double rateHz);
    /// Up to peaks.size() directions for one event: the map's largest local maxima, largest first;
    /// returns how many. Throws as estimate(). [no allocation]
    std::size_t estimatePeaks(std::span<const std::span<const float>> channels, double rateHz, std::span<DirectionEstimate> peaks);

private:
    /// Fill map_ for one event.
    void computeMap(std::span<const std::span<const float>> channels, double rateHz);
    /// Weighted pair spectra -> lag tables; returns the constant (diagonal) part of the map.
    double tabulatePairs(std::int64_t firstBin, std::int64_t lastBin);
    double lagTableValue(std::size_t pair, double lagSamples) const;

    Settings settings_;
    int micCount_ = 0;
    double largestDelaySeconds_ = 0.0;  // the array's aperture over the speed of sound
    std::vector<std::pair<int, int>> pairs_;         // (m, n), m < n
    std::vector<double> pairDelaySeconds_;           // [direction][pair]: tau_m - tau_n
    CrossSpectra crossSpectra_;
    std::optional<SignalSubspace> subspace_;         // MusicSubspace only
    const RealInversePlan* inverse_ = nullptr;       // 16 N
    SigSeg<std::complex<float>> pairSpectrum_;       // 8 N + 1 bins: one pair's weighted spectrum
    SigSeg<float> lagTable_;                         // 16 N lags: the inverse transform's output
    std::vector<float> pairTables_;                  // [pair][16 N]
    std::vector<double> map_;                        // [direction]
};

}  // namespace isochron
