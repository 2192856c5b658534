// PairLagTables: each mic pair's weighted cross-correlation over the lags the array allows, made from
// one frame's cross-spectra; summing them at a direction's pair delays gives the steered response.
//
// For pair (m, n) and a weighted cross-spectrum Psi_mn(k) (e.g. PHAT: X_m X_n^* / |X_m X_n|), the
// response towards u is sum_k Re(Psi_mn(k) e^{i w_k tau_mn(u)}) with tau_mn = tau_m - tau_n = (p_n - p_m).u / c
// (array_geometry.h). It depends on the lag tau_mn only, so one inverse FFT per pair tabulates it;
// only lags within the pair's spacing over c (plus two samples for interpolation) are kept. Tables are
// sampled at R = rate x T / N (T the inverse FFT's size, a power-of-two multiple of the frame N chosen
// so that R >= 4 x the highest frequency used), then resampled 4 times finer by a windowed sinc
// (Lanczos, 8 taps; a fraction of a percent at a quarter of R). Directions read the fine table by
// linear interpolation (steered) or, for a precomputed grid, at the nearest fine entry (steeredAt:
// a lag error of at most 1/8 of a table step, a fraction of a degree for the arrays in use).
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "engine/signal/sigseg.h"
#include "nodes/spatial/array_geometry.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron {

/// Lag tables of every mic pair for frames of one size and rate. [engine thread]
class PairLagTables {
public:
    /// For frames of `frameSize` samples at `rateHz`, bins up to `highestHz` (> 0), the pairs of
    /// `geometry` (m < n, in order) and sound speed `speedOfSound` (m/s). [setup, allocates]
    PairLagTables(const ArrayGeometry& geometry, double speedOfSound, std::int64_t frameSize, double rateHz, double highestHz);
    /// Whether such frames are long enough for the array: every pair's lags (its spacing over c, plus the
    /// interpolation kernel) fit in the inverse FFT. The constructor throws std::invalid_argument where not. [no allocation]
    static bool framesHoldLags(const ArrayGeometry& geometry, double speedOfSound, std::int64_t frameSize, double rateHz, double highestHz);

    /// Mic pairs (m, n), m < n.
    std::span<const std::pair<int, int>> pairs() const { return pairs_; }
    /// The spectrum to fill for the next tabulate(): frame bins 0 .. frameSize/2, all 0 until written
    /// (more bins follow and stay 0); tabulate() sets them to 0 again. [no allocation]
    std::span<std::complex<float>> pairSpectrum() { return {spectrumData_, static_cast<std::size_t>(frameSize_ / 2 + 1)}; }
    /// Turn pairSpectrum() into pair `pair`'s table: entry at lag L (seconds) holds
    /// 2 sum_k Re(Psi(k) e^{i w_k L}) (the inverse FFT's scaling). [no allocation]
    void tabulate(std::size_t pair);
    /// Sum over pairs of the tables at a direction's positions (see positionsFor). [no allocation]
    double steered(const float* positions) const;
    /// Sum over pairs of the fine tables' entries `entries` (see entriesFor). [no allocation]
    double steeredAt(const std::int32_t* entries) const;
    /// Fine-table positions of every pair for the far-field direction `towardsSource` (unit vector),
    /// pairs().size() floats into `positions`. [no allocation]
    void positionsFor(const Eigen::Vector3d& towardsSource, float* positions) const;
    /// The fine-table entries nearest to a direction's positions, pairs().size() into `entries`. [no allocation]
    void entriesFor(const Eigen::Vector3d& towardsSource, std::int32_t* entries) const;
    /// Pair `pair`'s table at `lagSeconds` (within the pair's spacing over c). [no allocation]
    double value(std::size_t pair, double lagSeconds) const;

private:
    std::int64_t frameSize_;
    double tableRateHz_;                      // R: table samples per second of lag
    std::vector<std::pair<int, int>> pairs_;
    std::vector<Eigen::Vector3d> pairBaselines_;  // [pair]: (p_n - p_m) / c, seconds per unit direction
    std::vector<int> halfWidth_;              // [pair]: table steps either side of lag 0 (reach + kernel margin)
    std::vector<std::size_t> offset_;         // [pair]: where its fine table starts in fine_
    std::vector<float> fine_;                 // [pair][4 x 2 halfWidth + 1]: 4 entries per table step
    const RealInversePlan* inverse_ = nullptr;
    SigSeg<std::complex<float>> spectrum_;    // T/2 + 1 bins, the upper ones always 0
    std::complex<float>* spectrumData_ = nullptr;
    SigSeg<float> correlation_;               // T lags, the inverse FFT's output
};

}  // namespace isochron
