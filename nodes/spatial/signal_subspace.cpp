#include "nodes/spatial/signal_subspace.h"

#include <stdexcept>
#include <string>

namespace isochron {

SignalSubspace::SignalSubspace(int micCount, int sources, std::int64_t blockSize)
    : mics_(static_cast<std::size_t>(micCount)), sources_(sources) {
    if (micCount > kMaxMics) {
        throw std::invalid_argument("MUSIC takes at most " + std::to_string(kMaxMics) + " mics (there are " + std::to_string(micCount) + ")");
    }
    if (sources < 1 || sources >= micCount) {
        throw std::invalid_argument(std::to_string(sources) + " sources need more than " + std::to_string(sources) + " mics (there are " +
                                    std::to_string(micCount) + ")");
    }
    matrix_.resize(micCount, micCount);
    projectors_.resize(static_cast<std::size_t>(blockSize / 2 + 1) * mics_ * mics_);
}

void SignalSubspace::compute(const CrossSpectra& cross, std::int64_t firstBin, std::int64_t lastBin) {
    const auto mics = static_cast<Eigen::Index>(mics_);
    for (std::int64_t k = firstBin; k <= lastBin; ++k) {
        std::complex<double>* projector = projectors_.data() + static_cast<std::size_t>(k) * mics_ * mics_;
        double trace = 0.0;
        for (Eigen::Index m = 0; m < mics; ++m) {
            for (Eigen::Index n = m; n < mics; ++n) {
                const std::complex<double> r = cross.at(k, static_cast<int>(m), static_cast<int>(n));
                matrix_(m, n) = r;
                matrix_(n, m) = std::conj(r);
            }
            trace += matrix_(m, m).real();
        }
        if (!(trace > 0.0)) {
            std::fill(projector, projector + mics_ * mics_, std::complex<double>());
            continue;
        }
        solver_.compute(matrix_, Eigen::ComputeEigenvectors);
        const auto& vectors = solver_.eigenvectors();  // columns, eigenvalues ascending: the signal subspace is last
        for (Eigen::Index m = 0; m < mics; ++m) {
            for (Eigen::Index n = m; n < mics; ++n) {
                std::complex<double> sum;
                for (Eigen::Index j = mics - sources_; j < mics; ++j) sum += vectors(m, j) * std::conj(vectors(n, j));
                projector[static_cast<std::size_t>(m) * mics_ + static_cast<std::size_t>(n)] = sum;
            }
        }
    }
}

}  // namespace isochron
