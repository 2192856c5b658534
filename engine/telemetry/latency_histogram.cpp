#include "engine/telemetry/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace isochron {

int LatencyHistogram::bucketOf(std::int64_t ns) noexcept {
    if (ns < kSubBuckets) return static_cast<int>(std::max<std::int64_t>(ns, 0));
    int exponent = 63 - __builtin_clzll(static_cast<unsigned long long>(ns));  // >= 4
    int octave = exponent - 3;  // values [16, 32) are octave 1
    int mantissa = static_cast<int>((ns >> (exponent - 4)) & (kSubBuckets - 1));
    int bucket = octave * kSubBuckets + mantissa;
    return std::min(bucket, kSubBuckets * kOctaves - 1);
}

double LatencyHistogram::bucketMidpoint(int bucket) noexcept {
    int octave = bucket / kSubBuckets;
    int mantissa = bucket % kSubBuckets;
    if (octave == 0) return mantissa;
    double low = std::ldexp(static_cast<double>(kSubBuckets + mantissa), octave - 1);
    double width = std::ldexp(1.0, octave - 1);
    return low + width / 2;
}

void LatencyHistogram::record(std::int64_t ns) noexcept {
    ns = std::max<std::int64_t>(ns, 0);
    ++buckets_[static_cast<std::size_t>(bucketOf(ns))];
    ++count_;
    sumNs_ += static_cast<double>(ns);
    maxNs_ = std::max(maxNs_, ns);
}

double LatencyHistogram::percentileNs(double fraction) const noexcept {
    if (count_ == 0) return 0;
    auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(count_)));
    rank = std::max<std::uint64_t>(rank, 1);
    std::uint64_t seen = 0;
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
        seen += buckets_[b];
        if (seen >= rank) return std::min(bucketMidpoint(static_cast<int>(b)), static_cast<double>(maxNs_));
    }
    return static_cast<double>(maxNs_);
}

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept {
    for (std::size_t b = 0; b < buckets_.size(); ++b) buckets_[b] += other.buckets_[b];
    count_ += other.count_;
    sumNs_ += other.sumNs_;
    maxNs_ = std::max(maxNs_, other.maxNs_);
}

}  // namespace isochron
