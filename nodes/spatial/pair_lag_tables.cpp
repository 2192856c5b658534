#include "nodes/spatial/pair_lag_tables.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace isochron {
namespace {

/// Catmull-Rom interpolation between b (t = 0) and c (t = 1), a and d the outer neighbours.
constexpr int kFine = 4;  // fine entries per table step

inline float catmullRom(float a, float b, float c, float d, float t) {
    return b + 0.5f * t * (c - a + t * (2.0f * a - 5.0f * b + 4.0f * c - d + t * (3.0f * (b - c) + d - a)));
}

}  // namespace

PairLagTables::PairLagTables(const ArrayGeometry& geometry, double speedOfSound, std::int64_t frameSize, double rateHz,
                             double highestHz)
    : frameSize_(frameSize) {
    if (!(highestHz > 0.0) || !(rateHz > 0.0)) throw std::invalid_argument("lag tables need a positive rate and band");
    std::int64_t size = frameSize;
    while (rateHz * static_cast<double>(size) / static_cast<double>(frameSize) < 4.0 * highestHz) size *= 2;
    tableRateHz_ = rateHz * static_cast<double>(size) / static_cast<double>(frameSize);
    std::size_t total = 0;
    for (int m = 0; m < geometry.micCount(); ++m) {
        for (int n = m + 1; n < geometry.micCount(); ++n) {
            pairs_.emplace_back(m, n);
            const Eigen::Vector3d baseline = (geometry.mics[static_cast<std::size_t>(n)] - geometry.mics[static_cast<std::size_t>(m)]) / speedOfSound;
            pairBaselines_.push_back(baseline);
            const int half = static_cast<int>(std::ceil(baseline.norm() * tableRateHz_)) + 3;
            if (2 * half + 1 > size) {
                throw std::invalid_argument("frames of " + std::to_string(frameSize) + " samples are too short for mics " +
                                            std::to_string(m) + " and " + std::to_string(n) + " (" +
                                            std::to_string(baseline.norm() * speedOfSound) + " m apart)");
            }
            halfWidth_.push_back(half);
            offset_.push_back(total);
            total += static_cast<std::size_t>(kFine * 2 * half + 1);
        }
    }
    fine_.assign(total, 0.0f);
    inverse_ = &FftPlanCache::instance().realInverse(size, PlanEffort::Estimate);
    spectrum_ = SigSeg<std::complex<float>>::allocate(inverse_->binCount(), 0, nullptr);
    spectrumData_ = spectrum_.writable().data();  // sole owner: the pointer stays valid
    std::fill_n(spectrumData_, inverse_->binCount(), std::complex<float>());
    correlation_ = SigSeg<float>::allocate(size, 0, nullptr);
}

void PairLagTables::tabulate(std::size_t pair) {
    float* lags = correlation_.writable().data();
    inverse_->execute(spectrumData_, lags);
    // The inverse transform overwrites its input: every bin is 0 again for the next pair.
    std::fill_n(spectrumData_, inverse_->binCount(), std::complex<float>());
    const int half = halfWidth_[pair];
    const auto size = static_cast<std::int64_t>(inverse_->size());
    // Lags -half .. half are table steps 0 .. 2 half; the fine table has kFine entries per step, and
    // the outermost step at either end (no neighbour for the cubic) is left at 0: no direction reads it.
    auto lag = [&](int step) { return lags[(step - half + size) % size]; };
    float* fine = fine_.data() + offset_[pair];
    for (int step = 1; step + 2 <= 2 * half; ++step) {
        const float a = lag(step - 1), b = lag(step), c = lag(step + 1), d = lag(step + 2);
        for (int f = 0; f < kFine; ++f) fine[step * kFine + f] = catmullRom(a, b, c, d, static_cast<float>(f) / kFine);
    }
}

double PairLagTables::value(std::size_t pair, double lagSeconds) const {
    const float position = static_cast<float>((lagSeconds * tableRateHz_ + halfWidth_[pair]) * kFine);
    const float* fine = fine_.data() + offset_[pair];
    const float below = std::floor(position);
    const auto i = static_cast<std::size_t>(below);
    return fine[i] + (position - below) * (fine[i + 1] - fine[i]);
}

void PairLagTables::positionsFor(const Eigen::Vector3d& towardsSource, float* positions) const {
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
        positions[p] = static_cast<float>((pairBaselines_[p].dot(towardsSource) * tableRateHz_ + halfWidth_[p]) * kFine);
    }
}

void PairLagTables::entriesFor(const Eigen::Vector3d& towardsSource, std::int32_t* entries) const {
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
        entries[p] = static_cast<std::int32_t>(offset_[p]) +
                     static_cast<std::int32_t>(std::lround((pairBaselines_[p].dot(towardsSource) * tableRateHz_ + halfWidth_[p]) * kFine));
    }
}

double PairLagTables::steered(const float* positions) const {
    float sum = 0.0f;
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
        const float* fine = fine_.data() + offset_[p];
        const float position = positions[p];
        const float below = std::floor(position);
        const auto i = static_cast<std::size_t>(below);
        sum += fine[i] + (position - below) * (fine[i + 1] - fine[i]);
    }
    return sum;
}

double PairLagTables::steeredAt(const std::int32_t* entries) const {
    float sum = 0.0f;
    for (std::size_t p = 0; p < pairs_.size(); ++p) sum += fine_[static_cast<std::size_t>(entries[p])];
    return sum;
}

}  // namespace isochron
