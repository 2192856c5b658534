#include "nodes/spatial/pair_lag_tables.h"

#include <algorithm>
#include <array>
#include <numbers>
#include <cmath>
#include <stdexcept>
#include <string>

namespace isochron {
namespace {

constexpr int kFine = 4;   // fine entries per table step
constexpr int kTaps = 8;   // interpolation kernel length (4 table steps either side)

/// Lanczos (a = 4) weights for the points kFine apart in between table steps: weights[f][t] multiplies
/// the table entry at step (t - kTaps / 2 + 1) relative to the one below fraction f / kFine. A
/// windowed sinc keeps the tables' content up to a quarter of their rate within a fraction of a
/// percent, where a cubic would flatten and shift the peaks of a small array by tenths of a degree.
const std::array<std::array<float, kTaps>, kFine>& interpolationWeights() {
    static const auto weights = [] {
        std::array<std::array<float, kTaps>, kFine> w{};
        for (int f = 0; f < kFine; ++f) {
            const double fraction = static_cast<double>(f) / kFine;
            double sum = 0.0;
            for (int t = 0; t < kTaps; ++t) {
                const double x = static_cast<double>(t - kTaps / 2 + 1) - fraction;
                const double a = kTaps / 2;
                const double sinc = x == 0.0 ? 1.0 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x);
                const double window = x == 0.0 ? 1.0 : std::sin(std::numbers::pi * x / a) / (std::numbers::pi * x / a);
                w[static_cast<std::size_t>(f)][static_cast<std::size_t>(t)] = static_cast<float>(std::abs(x) < a ? sinc * window : 0.0);
                sum += w[static_cast<std::size_t>(f)][static_cast<std::size_t>(t)];
            }
            for (float& weight : w[static_cast<std::size_t>(f)]) weight = static_cast<float>(weight / sum);
        }
        return w;
    }();
    return weights;
}

}  // namespace

namespace {

/// The inverse FFT's size T: the frame's, doubled until its table rate reaches 4 x the highest frequency.
std::int64_t tableSize(std::int64_t frameSize, double rateHz, double highestHz) {
    std::int64_t size = frameSize;
    while (rateHz * static_cast<double>(size) / static_cast<double>(frameSize) < 4.0 * highestHz) size *= 2;
    return size;
}

/// Table steps either side of lag 0 for a pair `spacingSeconds` apart (in time) at table rate `tableRateHz`.
int halfWidthFor(double spacingSeconds, double tableRateHz) { return static_cast<int>(std::ceil(spacingSeconds * tableRateHz)) + kTaps / 2 + 1; }

}  // namespace

bool PairLagTables::framesHoldLags(const ArrayGeometry& geometry, double speedOfSound, std::int64_t frameSize, double rateHz,
                                   double highestHz) {
    if (!(highestHz > 0.0) || !(rateHz > 0.0) || frameSize < 1) return false;
    const std::int64_t size = tableSize(frameSize, rateHz, highestHz);
    const double tableRateHz = rateHz * static_cast<double>(size) / static_cast<double>(frameSize);
    return 2 * halfWidthFor(geometry.aperture() / speedOfSound, tableRateHz) + 1 <= size;
}

PairLagTables::PairLagTables(const ArrayGeometry& geometry, double speedOfSound, std::int64_t frameSize, double rateHz,
                             double highestHz)
    : frameSize_(frameSize) {
    if (!(highestHz > 0.0) || !(rateHz > 0.0)) throw std::invalid_argument("lag tables need a positive rate and band");
    const std::int64_t size = tableSize(frameSize, rateHz, highestHz);
    tableRateHz_ = rateHz * static_cast<double>(size) / static_cast<double>(frameSize);
    std::size_t total = 0;
    for (int m = 0; m < geometry.micCount(); ++m) {
        for (int n = m + 1; n < geometry.micCount(); ++n) {
            pairs_.emplace_back(m, n);
            const Eigen::Vector3d baseline = (geometry.mics[static_cast<std::size_t>(n)] - geometry.mics[static_cast<std::size_t>(m)]) / speedOfSound;
            pairBaselines_.push_back(baseline);
            const int half = halfWidthFor(baseline.norm(), tableRateHz_);
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
    // Lags -half .. half are table steps 0 .. 2 half; the fine table has kFine entries per step. Steps
    // whose kernel would reach past the table (the outermost kTaps / 2) are left at 0: no direction reads
    // them (halfWidth_ leaves that margin).
    auto lag = [&](int step) { return lags[(step - half + size) % size]; };
    float* fine = fine_.data() + offset_[pair];
    const auto& weights = interpolationWeights();
    for (int step = kTaps / 2 - 1; step + kTaps / 2 <= 2 * half; ++step) {
        float window[kTaps];
        for (int t = 0; t < kTaps; ++t) window[t] = lag(step + t - kTaps / 2 + 1);
        for (int f = 0; f < kFine; ++f) {
            float sum = 0.0f;
            for (int t = 0; t < kTaps; ++t) sum += weights[static_cast<std::size_t>(f)][static_cast<std::size_t>(t)] * window[t];
            fine[step * kFine + f] = sum;
        }
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
