// NoiseCovariance: the spatial covariance of an array's noise per frequency bin, learnt where no
// sound is present, and its principal direction, so that a steady directional noise (a fan, a
// machine) can be subtracted from each pair's cross-spectrum or projected out of each frame.
//
// Per band bin k: N(k) = a N(k) + (1 - a) x x^H with a = a_0 + (1 - a_0) p(k), p the presence of
// sound (detect.spectral_activity): frames with sound do not teach it. The principal eigenvector v(k)
// is followed by power iterations (warm-started; each frame iterates an eighth of the bins, which is
// plenty for a covariance that changes over seconds), and
//   directivity(k) = (M lambda_1 / tr N - 1) / (M - 1)
// says how much of the noise is one plane wave: 0 when it is spatially white, 1 for a point source.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "nodes/spatial/array_spectra.h"

namespace isochron {

/// Per-bin noise covariance of one array over a band. [one thread] [no allocation after construction]
class NoiseCovariance {
public:
    /// For `mics` (>= 2) mics and bins [firstBin, lastBin]; `smoothing` in [0, 1) weighs the past per
    /// frame without sound. Pairs (m, n), m < n, in lexicographic order (as PairLagTables). [allocates]
    NoiseCovariance(int mics, std::int64_t firstBin, std::int64_t lastBin, float smoothing);

    /// Learn one frame; `presence` is indexed by bin (0 .. lastBin at least). [no allocation]
    void update(const ArraySpectra& spectra, std::span<const float> presence);
    /// Whether a frame has been learnt.
    bool ready() const { return frames_ > 0; }

    /// Pair p's noise cross-spectrum E[x_m x_n^*] over the band (index 0 = firstBin). [no allocation]
    const float* pairReal(std::size_t p) const { return pairRe_.data() + p * band_; }
    const float* pairImaginary(std::size_t p) const { return pairIm_.data() + p * band_; }
    /// How much of band bin i's noise is one plane wave, [0, 1]. [no allocation]
    float directivity(std::size_t i) const { return directivity_[i]; }
    /// Band bin i's principal eigenvector (unit length, mics() entries). [no allocation]
    const std::complex<float>* principal(std::size_t i) const { return principal_.data() + i * mics_; }
    std::size_t mics() const { return mics_; }

private:
    void iterate(std::size_t i);

    std::size_t mics_;
    std::int64_t firstBin_;
    std::size_t band_;
    float smoothing_;
    std::int64_t frames_ = 0;
    std::vector<std::pair<int, int>> pairs_;
    std::vector<float> diagonal_;                 // [mic][bin]: E|x_m|^2
    std::vector<float> pairRe_, pairIm_;          // [pair][bin]
    std::vector<std::complex<float>> principal_;  // [bin][mic]
    std::vector<float> directivity_;              // [bin]
    std::vector<float> keep_;                     // [bin]: this frame's weight of the past
    std::vector<std::complex<float>> product_;    // [mic]: N v
};

}  // namespace isochron
