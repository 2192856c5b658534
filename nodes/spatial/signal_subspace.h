// SignalSubspace: per frequency bin, the projector onto the signal subspace of an event's
// cross-spectral matrix, which turns the steered response into wideband MUSIC.
//
// R(k) (cross_spectra.h) is Hermitian; its eigenvectors with the D largest eigenvalues span the
// signal subspace E_s(k) of D sources, the rest the noise subspace. MUSIC looks for the directions
// whose steering vectors a_k(u) are orthogonal to the noise subspace, i.e. lie in the signal subspace:
// a^H P_s a = |a|^2 - a^H P_n a with P_s = E_s E_s^H. Steering P_s(k) instead of R(k) gives, per bin,
// the fraction of a's energy in the signal subspace (1 for a true source direction), averaged over the
// band: an incoherent wideband MUSIC whose map lies in [0, 1] like the other estimators'. Bins without
// energy (R(k) = 0) have no subspace and contribute 0.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include "nodes/spatial/cross_spectra.h"

namespace isochron {

/// Signal-subspace projectors of every bin of one event. [engine thread]
class SignalSubspace {
public:
    /// Most mics MUSIC takes: its matrices live inside the object, so eigen-decompositions allocate nothing.
    static constexpr int kMaxMics = 16;

    /// For `micCount` (2 .. kMaxMics) mics, `sources` (1 .. micCount - 1) sources and blocks of
    /// `blockSize` samples. Throws std::invalid_argument otherwise. [setup, allocates]
    SignalSubspace(int micCount, int sources, std::int64_t blockSize);

    /// P_s(k) of `cross` for bins first .. last. [no allocation]
    void compute(const CrossSpectra& cross, std::int64_t firstBin, std::int64_t lastBin);
    /// P_s(k)_mn.
    std::complex<double> at(std::int64_t k, int m, int n) const {
        return projectors_[static_cast<std::size_t>(k) * mics_ * mics_ + static_cast<std::size_t>(m) * mics_ + static_cast<std::size_t>(n)];
    }

private:
    using Matrix = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxMics, kMaxMics>;

    std::size_t mics_;
    int sources_;
    Matrix matrix_;                               // R(k), full
    Eigen::SelfAdjointEigenSolver<Matrix> solver_;
    std::vector<std::complex<double>> projectors_;           // [bin][m * M + n]
};

}  // namespace isochron
