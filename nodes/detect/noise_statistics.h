// NoiseStatistics: the mean and deviation of a detection score while only noise is present, as CFAR
// detectors need them: a plain running average over the first `adaptCount` scores (so the estimate
// settles fast), exponentially weighted with time constant `adaptCount` scores after that.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace isochron {

/// Running noise mean and variance of a score. [value type] [no allocation]
class NoiseStatistics {
public:
    /// Time constant in scores (>= 1).
    explicit NoiseStatistics(std::int64_t adaptCount = 1000) : adaptCount_(std::max<std::int64_t>(1, adaptCount)) {}

    /// Learn one score known to be noise.
    void learn(double score) {
        ++count_;
        const double weight = 1.0 / static_cast<double>(std::min(count_, adaptCount_));
        const double difference = score - mean_;
        mean_ += weight * difference;
        variance_ = (1.0 - weight) * (variance_ + weight * difference * difference);
    }
    /// Forget everything learnt.
    void reset() { *this = NoiseStatistics(adaptCount_); }

    /// Scores learnt so far.
    std::int64_t count() const { return count_; }
    double mean() const { return mean_; }
    /// The deviation, at least `floor`.
    double deviation(double floor = 0.0) const { return std::max(std::sqrt(variance_), floor); }

private:
    std::int64_t adaptCount_;
    std::int64_t count_ = 0;
    double mean_ = 0.0;
    double variance_ = 0.0;
};

}  // namespace isochron
