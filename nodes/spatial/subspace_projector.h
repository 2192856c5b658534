// SubspaceProjector: per frequency bin, the projector onto the signal subspace of an array's recent
// spatial covariance, for MUSIC and GEVD-MUSIC in spatial.frame_directions.
//
// R(k) = a R(k) + (1 - a) x x^H over frames (a few frames: a single one has rank 1). For a bin:
//   MUSIC       the eigenvectors of R with the D largest eigenvalues span the signal subspace E_s;
//               P_s = E_s E_s^H.
//   GEVD-MUSIC  R e = lambda N e with N the noise covariance (noise_covariance.h, diagonally loaded):
//               the generalized eigenvectors of the M - D smallest lambda are orthogonal to every source's
//               steering vector whatever the noise's spatial colour (a fan's direction included), so with
//               Q_n an orthonormal basis of their span, P_s = I - Q_n Q_n^H.
// Steering P_s instead of a cross-spectrum gives, per bin, the share of a steering vector's energy in
// the signal subspace: a^H P_s a / M, 1 towards a source (pair_lag_tables.h tabulates its off-diagonal
// part like a cross-spectrum; its trace is D). Matrices live inside the object (at most kMaxMics mics),
// so decompositions allocate nothing.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include "nodes/spatial/array_spectra.h"
#include "nodes/spatial/noise_covariance.h"

namespace isochron {

/// Recent covariance and signal-subspace projectors per bin of one array. [one thread] [no allocation after construction]
class SubspaceProjector {
public:
    static constexpr int kMaxMics = 16;

    /// For `mics` (2 .. kMaxMics) mics, `sources` (1 .. mics - 1) signal dimensions, band bins
    /// [firstBin, lastBin] and `smoothing` in [0, 1) per frame. Throws std::invalid_argument. [allocates]
    SubspaceProjector(int mics, int sources, std::int64_t firstBin, std::int64_t lastBin, float smoothing);

    /// Learn one frame. [no allocation]
    void update(const ArraySpectra& spectra);
    /// P_s of band bin i (index 0 = firstBin) into `projector` (M x M, row-major), whitened by `noise`
    /// (GEVD-MUSIC) when given and learnt at that bin; false if the bin has no energy. [no allocation]
    bool project(std::size_t i, const NoiseCovariance* noise, std::complex<float>* projector);

private:
    using Matrix = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxMics, kMaxMics>;

    std::size_t mics_;
    int sources_;
    std::int64_t firstBin_;
    std::size_t band_;
    float smoothing_;
    bool started_ = false;
    std::vector<std::complex<float>> covariance_;  // [bin][m * M + n]
    Matrix recent_, noise_, basis_;
    Eigen::SelfAdjointEigenSolver<Matrix> solver_;
    Eigen::GeneralizedSelfAdjointEigenSolver<Matrix> generalized_;
    Eigen::HouseholderQR<Matrix> orthonormal_;
};

}  // namespace isochron
