// BackgroundSubspace: per frequency bin, the long-term spatial covariance of what an array hears and
// its principal direction, so that bins dominated by a steady or ever-returning source (a fan, a
// distant talker) can be told apart from bins where a new sound dominates.
//
// Per bin k, B(k) = a B(k) + (1 - a) x x^H over frames, where x holds the mics' spectra, except that a
// frame much louder than the background so far (power above `loudRatio` x tr B / M) is not learnt: a
// new sound does not become background while it lasts. The principal eigenvector v(k) of B(k) is
// followed by one power iteration per update (warm-started, so it converges within a few frames
// while the background stays put). Then for a frame's x:
//   dominance(k) = |v^H x|^2 / |x|^2 x directivity(k),  directivity = (M lambda_1 / tr B - 1) / (M - 1)
// is the share of the frame's energy that lies along the background's direction, counted only as far
// as the background is directional (0 for a spatially white background, 1 for a single plane wave).
// To bound the cost, each frame updates every other bin's covariance and every fourth bin's vector.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "nodes/spatial/array_spectra.h"

namespace isochron {

/// Long-term covariance and principal direction of the background, per bin. [one thread] [no allocation after construction]
class BackgroundSubspace {
public:
    /// For `mics` mics (>= 2) and bins [firstBin, lastBin]; `smoothing` in (0, 1) is a per-update weight
    /// of the past, `loudRatio` (> 1) the power ratio above which a frame is not learnt. [allocates]
    BackgroundSubspace(int mics, std::int64_t firstBin, std::int64_t lastBin, float smoothing, float loudRatio);

    /// Learn one frame. [no allocation]
    void update(const ArraySpectra& spectra);
    /// The background dominance of bin k in `spectra`, in [0, 1] (0 before anything was learnt). [no allocation]
    float dominance(const ArraySpectra& spectra, std::int64_t k) const;

private:
    std::size_t index(std::int64_t k) const { return static_cast<std::size_t>(k - firstBin_); }

    int mics_;
    std::int64_t firstBin_;
    std::int64_t lastBin_;
    float smoothing_;
    float loudRatio_;
    std::int64_t frames_ = 0;
    std::vector<std::complex<float>> covariance_;  // [bin][m * M + n], full Hermitian
    std::vector<std::complex<float>> principal_;   // [bin][m]: unit vector
    std::vector<float> directivity_;               // [bin]
    std::vector<char> learnt_;                     // [bin]: has learnt at least one frame
    std::vector<std::complex<float>> scratch_;     // [m]
};

}  // namespace isochron
