#include "nodes/spatial/noise_covariance.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace isochron {
namespace {

constexpr int kIterationStride = 8;  // each frame iterates every eighth bin
constexpr float kLoudRatio = 2.0f;   // a bin this far above the noise floor (3 dB) is not noise, whatever the presence says

}  // namespace

NoiseCovariance::NoiseCovariance(int mics, std::int64_t firstBin, std::int64_t lastBin, float smoothing, std::int64_t warmupFrames)
    : mics_(static_cast<std::size_t>(mics)), firstBin_(firstBin), smoothing_(smoothing), warmupFrames_(warmupFrames) {
    if (mics < 2 || lastBin < firstBin || !(smoothing >= 0.0f && smoothing < 1.0f)) {
        throw std::invalid_argument("noise covariance: needs 2+ mics, a band and a smoothing in [0, 1)");
    }
    band_ = static_cast<std::size_t>(lastBin - firstBin + 1);
    for (int m = 0; m < mics; ++m) {
        for (int n = m + 1; n < mics; ++n) pairs_.emplace_back(m, n);
    }
    diagonal_.assign(mics_ * band_, 0.0f);
    pairRe_.assign(pairs_.size() * band_, 0.0f);
    pairIm_.assign(pairs_.size() * band_, 0.0f);
    principal_.assign(band_ * mics_, std::complex<float>(1.0f / std::sqrt(static_cast<float>(mics)), 0.0f));
    directivity_.assign(band_, 0.0f);
    keep_.assign(band_, 0.0f);
    learnt_.assign(band_, 0.0f);
    product_.assign(mics_, {});
}

void NoiseCovariance::update(const ArraySpectra& spectra, std::span<const float> presence, std::span<const float> floor) {
    if (frames_++ < warmupFrames_) return;  // the noise floor is still settling
    std::fill(keep_.begin(), keep_.end(), 0.0f);
    for (std::size_t m = 0; m < mics_; ++m) {
        const float* x = reinterpret_cast<const float*>(spectra.mic(static_cast<int>(m)).data() + firstBin_);
        for (std::size_t i = 0; i < band_; ++i) keep_[i] += x[2 * i] * x[2 * i] + x[2 * i + 1] * x[2 * i + 1];
    }
    const float loud = kLoudRatio * static_cast<float>(mics_);
    const float horizon = 1.0f / (1.0f - smoothing_);
    for (std::size_t i = 0; i < band_; ++i) {
        const auto k = static_cast<std::size_t>(firstBin_) + i;
        // keep_ holds the frame's power summed over mics until here. How much of this frame is noise:
        const float noise = keep_[i] > loud * floor[k] ? 0.0f : 1.0f - presence[k];
        learnt_[i] += noise;
        // A running average until the horizon is reached, exponential after.
        keep_[i] = learnt_[i] > 0.0f ? 1.0f - noise / std::min(learnt_[i], horizon) : 1.0f;
    }
    for (std::size_t m = 0; m < mics_; ++m) {
        const float* x = reinterpret_cast<const float*>(spectra.mic(static_cast<int>(m)).data() + firstBin_);
        float* power = diagonal_.data() + m * band_;
        for (std::size_t i = 0; i < band_; ++i) {
            power[i] = keep_[i] * power[i] + (1.0f - keep_[i]) * (x[2 * i] * x[2 * i] + x[2 * i + 1] * x[2 * i + 1]);
        }
    }
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
        const float* xm = reinterpret_cast<const float*>(spectra.mic(pairs_[p].first).data() + firstBin_);
        const float* xn = reinterpret_cast<const float*>(spectra.mic(pairs_[p].second).data() + firstBin_);
        float* re = pairRe_.data() + p * band_;
        float* im = pairIm_.data() + p * band_;
        for (std::size_t i = 0; i < band_; ++i) {
            const float k = keep_[i];
            re[i] = k * re[i] + (1.0f - k) * (xm[2 * i] * xn[2 * i] + xm[2 * i + 1] * xn[2 * i + 1]);
            im[i] = k * im[i] + (1.0f - k) * (xm[2 * i + 1] * xn[2 * i] - xm[2 * i] * xn[2 * i + 1]);
        }
    }
    for (auto i = static_cast<std::size_t>(frames_ % kIterationStride); i < band_; i += kIterationStride) iterate(i);
}

void NoiseCovariance::iterate(std::size_t i) {
    std::complex<float>* v = principal_.data() + i * mics_;
    std::fill(product_.begin(), product_.end(), std::complex<float>());
    float trace = 0.0f;
    for (std::size_t m = 0; m < mics_; ++m) {
        const float d = diagonal_[m * band_ + i];
        trace += d;
        product_[m] += d * v[m];
    }
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
        const auto m = static_cast<std::size_t>(pairs_[p].first);
        const auto n = static_cast<std::size_t>(pairs_[p].second);
        const std::complex<float> r(pairRe_[p * band_ + i], pairIm_[p * band_ + i]);  // N_mn; N_nm is its conjugate
        product_[m] += r * v[n];
        product_[n] += std::conj(r) * v[m];
    }
    float norm = 0.0f;
    for (const auto& y : product_) norm += std::norm(y);
    norm = std::sqrt(norm);
    if (!(norm > 0.0f) || !(trace > 0.0f)) return;
    for (std::size_t m = 0; m < mics_; ++m) v[m] = product_[m] / norm;
    // |N v| for the previous v approximates the largest eigenvalue as v converges.
    const auto mics = static_cast<float>(mics_);
    directivity_[i] = std::clamp((mics * norm / trace - 1.0f) / (mics - 1.0f), 0.0f, 1.0f);
}

}  // namespace isochron
