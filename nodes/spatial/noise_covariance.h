// NoiseCovariance: the spatial covariance of an array's noise per frequency bin, learnt where no
// sound is present, and its principal direction, so that a steady directional noise (a fan, a
// machine) can be subtracted from each pair's cross-spectrum or projected out of each frame.
//
// Per band bin k, once the noise floor has settled (`warmupFrames`): N(k) = (1 - g) N(k) + g x x^H with
// g = u / min(n, 1 / (1 - a_0)), u = 1 - p(k) the share of the frame that is noise (p the presence of
// sound, detect.spectral_activity; u = 0 where the frame is 3 dB above the noise floor, so sound, or
// the ringing of one that just ended, does not teach it) and n the noise frames learnt so far: a
// running average at first, exponential with weight a_0 per frame after. The principal eigenvector v(k)
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
    /// frame without sound; the first `warmupFrames` frames are not learnt. Pairs (m, n), m < n, in
    /// lexicographic order (as PairLagTables). [allocates]
    NoiseCovariance(int mics, std::int64_t firstBin, std::int64_t lastBin, float smoothing, std::int64_t warmupFrames);

    /// Learn one frame; `presence` and `floor` (noise power per mic) are indexed by bin (0 .. lastBin at
    /// least). [no allocation]
    void update(const ArraySpectra& spectra, std::span<const float> presence, std::span<const float> floor);
    /// Whether band bin i has learnt at least one frame's worth of noise. [no allocation]
    bool learnt(std::size_t i) const { return learnt_[i] >= 1.0f; }

    /// Pair p's noise cross-spectrum E[x_m x_n^*] over the band (index 0 = firstBin). [no allocation]
    const float* pairReal(std::size_t p) const { return pairRe_.data() + p * band_; }
    const float* pairImaginary(std::size_t p) const { return pairIm_.data() + p * band_; }
    /// Mic m's noise power E|x_m|^2 at band bin i. [no allocation]
    float power(std::size_t m, std::size_t i) const { return diagonal_[m * band_ + i]; }
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
    std::int64_t warmupFrames_;
    std::int64_t frames_ = 0;
    std::vector<std::pair<int, int>> pairs_;
    std::vector<float> diagonal_;                 // [mic][bin]: E|x_m|^2
    std::vector<float> pairRe_, pairIm_;          // [pair][bin]
    std::vector<std::complex<float>> principal_;  // [bin][mic]
    std::vector<float> directivity_;              // [bin]
    std::vector<float> keep_;                     // [bin]: this frame's weight of the past (its power first)
    std::vector<float> learnt_;                   // [bin]: noise frames learnt (fractions count)
    std::vector<std::complex<float>> product_;    // [mic]: N v
};

}  // namespace isochron
