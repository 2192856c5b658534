#include "nodes/spatial/background_subspace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace isochron {

BackgroundSubspace::BackgroundSubspace(int mics, std::int64_t firstBin, std::int64_t lastBin, float smoothing, float loudRatio)
    : mics_(mics), firstBin_(firstBin), lastBin_(lastBin), smoothing_(smoothing), loudRatio_(loudRatio) {
    if (mics < 2 || lastBin < firstBin || !(smoothing > 0.0f && smoothing < 1.0f) || !(loudRatio > 1.0f)) {
        throw std::invalid_argument("background subspace: needs 2+ mics, a band, smoothing in (0, 1) and a loud ratio above 1");
    }
    const auto bins = static_cast<std::size_t>(lastBin - firstBin + 1);
    const auto m = static_cast<std::size_t>(mics);
    covariance_.assign(bins * m * m, {});
    principal_.assign(bins * m, std::complex<float>(1.0f / std::sqrt(static_cast<float>(mics)), 0.0f));
    directivity_.assign(bins, 0.0f);
    learnt_.assign(bins, 0);
    scratch_.assign(m, {});
}

void BackgroundSubspace::update(const ArraySpectra& spectra) {
    const auto m = static_cast<std::size_t>(mics_);
    const std::int64_t phase = frames_++;
    for (std::int64_t k = firstBin_ + (phase & 1); k <= lastBin_; k += 2) {
        const std::size_t b = index(k);
        std::complex<float>* r = covariance_.data() + b * m * m;
        float power = 0.0f;
        float trace = 0.0f;
        for (std::size_t i = 0; i < m; ++i) {
            power += std::norm(spectra.mic(static_cast<int>(i))[static_cast<std::size_t>(k)]);
            trace += r[i * m + i].real();
        }
        const bool first = !learnt_[b];
        if (!first && power > loudRatio_ * trace) continue;  // much louder than the background: a new sound
        const float a = first ? 0.0f : smoothing_;
        for (std::size_t i = 0; i < m; ++i) {
            const std::complex<float> xi = spectra.mic(static_cast<int>(i))[static_cast<std::size_t>(k)];
            for (std::size_t j = 0; j < m; ++j) {
                const std::complex<float> xj = spectra.mic(static_cast<int>(j))[static_cast<std::size_t>(k)];
                r[i * m + j] = a * r[i * m + j] + (1.0f - a) * (xi * std::conj(xj));
            }
        }
        learnt_[b] = 1;
        if (((k + (phase >> 1)) & 1) != 0) continue;  // every fourth frame per bin: one power iteration
        std::complex<float>* v = principal_.data() + b * m;
        float norm = 0.0f;
        trace = 0.0f;
        for (std::size_t i = 0; i < m; ++i) {
            std::complex<float> sum;
            for (std::size_t j = 0; j < m; ++j) sum += r[i * m + j] * v[j];
            scratch_[i] = sum;
            norm += std::norm(sum);
            trace += r[i * m + i].real();
        }
        norm = std::sqrt(norm);
        if (!(norm > 0.0f) || !(trace > 0.0f)) continue;
        for (std::size_t i = 0; i < m; ++i) v[i] = scratch_[i] / norm;
        // |R v| for the updated v approximates the largest eigenvalue once v has converged.
        const float share = norm / trace;
        directivity_[b] = std::clamp((static_cast<float>(mics_) * share - 1.0f) / (static_cast<float>(mics_) - 1.0f), 0.0f, 1.0f);
    }
}

float BackgroundSubspace::dominance(const ArraySpectra& spectra, std::int64_t k) const {
    const std::size_t b = index(k);
    if (!learnt_[b]) return 0.0f;
    const auto m = static_cast<std::size_t>(mics_);
    const std::complex<float>* v = principal_.data() + b * m;
    std::complex<float> projection;
    float energy = 0.0f;
    for (std::size_t i = 0; i < m; ++i) {
        const std::complex<float> x = spectra.mic(static_cast<int>(i))[static_cast<std::size_t>(k)];
        projection += std::conj(v[i]) * x;
        energy += std::norm(x);
    }
    if (!(energy > 0.0f)) return 0.0f;
    return std::min(1.0f, std::norm(projection) / energy) * directivity_[b];
}

}  // namespace isochron
