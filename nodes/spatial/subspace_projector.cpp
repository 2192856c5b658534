#include "nodes/spatial/subspace_projector.h"

#include <stdexcept>
#include <string>

namespace isochron {
namespace {

constexpr double kLoading = 1e-3;  // diagonal loading of the noise covariance, as a share of its mean power

}  // namespace

SubspaceProjector::SubspaceProjector(int mics, int sources, std::int64_t firstBin, std::int64_t lastBin, float smoothing)
    : mics_(static_cast<std::size_t>(mics)), sources_(sources), firstBin_(firstBin), smoothing_(smoothing) {
    if (mics < 2 || mics > kMaxMics) {
        throw std::invalid_argument("MUSIC takes 2 to " + std::to_string(kMaxMics) + " mics (there are " + std::to_string(mics) + ")");
    }
    if (sources < 1 || sources >= mics) {
        throw std::invalid_argument(std::to_string(sources) + " sources need more than " + std::to_string(sources) + " mics (there are " +
                                    std::to_string(mics) + ")");
    }
    if (lastBin < firstBin || !(smoothing >= 0.0f && smoothing < 1.0f)) throw std::invalid_argument("subspace: needs a band and smoothing in [0, 1)");
    band_ = static_cast<std::size_t>(lastBin - firstBin + 1);
    covariance_.assign(band_ * mics_ * mics_, {});
    recent_.resize(mics, mics);
    noise_.resize(mics, mics);
    basis_.resize(mics, mics);
}

void SubspaceProjector::update(const ArraySpectra& spectra) {
    const float a = started_ ? smoothing_ : 0.0f;
    started_ = true;
    for (std::size_t i = 0; i < band_; ++i) {
        std::complex<float>* r = covariance_.data() + i * mics_ * mics_;
        const auto k = static_cast<std::size_t>(firstBin_) + i;
        for (std::size_t m = 0; m < mics_; ++m) {
            const std::complex<float> xm = spectra.mic(static_cast<int>(m))[k];
            for (std::size_t n = m; n < mics_; ++n) {
                const std::complex<float> xn = spectra.mic(static_cast<int>(n))[k];
                r[m * mics_ + n] = a * r[m * mics_ + n] + (1.0f - a) * (xm * std::conj(xn));
            }
        }
    }
}

bool SubspaceProjector::project(std::size_t i, const NoiseCovariance* noise, std::complex<float>* projector) {
    const auto mics = static_cast<Eigen::Index>(mics_);
    const std::complex<float>* r = covariance_.data() + i * mics_ * mics_;
    double trace = 0.0;
    for (Eigen::Index m = 0; m < mics; ++m) {
        for (Eigen::Index n = m; n < mics; ++n) {
            const std::complex<double> value(r[static_cast<std::size_t>(m) * mics_ + static_cast<std::size_t>(n)]);
            recent_(m, n) = value;
            recent_(n, m) = std::conj(value);
        }
        trace += recent_(m, m).real();
    }
    if (!(trace > 0.0)) return false;
    const Eigen::Index noiseDimensions = mics - sources_;
    if (noise && noise->learnt(i)) {
        // Every pair of the noise covariance, and its diagonal loaded so that it stays positive definite.
        double noisePower = 0.0;
        for (Eigen::Index m = 0; m < mics; ++m) {
            noise_(m, m) = noise->power(static_cast<std::size_t>(m), i);
            noisePower += noise_(m, m).real();
        }
        std::size_t pair = 0;
        for (Eigen::Index m = 0; m < mics; ++m) {
            for (Eigen::Index n = m + 1; n < mics; ++n, ++pair) {
                const std::complex<double> value(noise->pairReal(pair)[i], noise->pairImaginary(pair)[i]);
                noise_(m, n) = value;
                noise_(n, m) = std::conj(value);
            }
        }
        if (!(noisePower > 0.0)) return false;
        for (Eigen::Index m = 0; m < mics; ++m) noise_(m, m) += kLoading * noisePower / static_cast<double>(mics);
        generalized_.compute(recent_, noise_, Eigen::ComputeEigenvectors | Eigen::Ax_lBx);
        if (generalized_.info() != Eigen::Success) return false;
        // Eigenvalues ascending: the noise subspace is the first M - D; orthonormalize it.
        basis_ = generalized_.eigenvectors();
        orthonormal_.compute(basis_.leftCols(noiseDimensions));
        basis_ = orthonormal_.householderQ();
        for (Eigen::Index m = 0; m < mics; ++m) {
            for (Eigen::Index n = 0; n < mics; ++n) {
                std::complex<double> sum = m == n ? 1.0 : 0.0;
                for (Eigen::Index j = 0; j < noiseDimensions; ++j) sum -= basis_(m, j) * std::conj(basis_(n, j));
                projector[static_cast<std::size_t>(m) * mics_ + static_cast<std::size_t>(n)] = std::complex<float>(sum);
            }
        }
        return true;
    }
    solver_.compute(recent_, Eigen::ComputeEigenvectors);
    if (solver_.info() != Eigen::Success) return false;
    const auto& vectors = solver_.eigenvectors();  // eigenvalues ascending: the signal subspace is last
    for (Eigen::Index m = 0; m < mics; ++m) {
        for (Eigen::Index n = 0; n < mics; ++n) {
            std::complex<double> sum;
            for (Eigen::Index j = noiseDimensions; j < mics; ++j) sum += vectors(m, j) * std::conj(vectors(n, j));
            projector[static_cast<std::size_t>(m) * mics_ + static_cast<std::size_t>(n)] = std::complex<float>(sum);
        }
    }
    return true;
}

}  // namespace isochron
