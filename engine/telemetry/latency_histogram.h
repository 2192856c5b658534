// Fixed-size log-linear histogram of latencies (16 buckets per octave, ~4% resolution), so sinks
// can record every item's latency without allocating.
#pragma once

#include <array>
#include <cstdint>

namespace isochron {

/// Histogram of non-negative durations in ns, 1 ns .. ~2^44 ns (4.9 h); larger values clamp. [single writer]
class LatencyHistogram {
public:
    static constexpr int kSubBuckets = 16;
    static constexpr int kOctaves = 44;

    void record(std::int64_t ns) noexcept;
    std::uint64_t count() const noexcept { return count_; }
    double meanNs() const noexcept { return count_ ? sumNs_ / static_cast<double>(count_) : 0.0; }
    std::int64_t maxNs() const noexcept { return maxNs_; }
    /// Latency below which `fraction` (0..1) of recorded values fall (bucket midpoint; 0 if empty).
    double percentileNs(double fraction) const noexcept;
    void merge(const LatencyHistogram& other) noexcept;
    void clear() noexcept { *this = LatencyHistogram(); }

private:
    static int bucketOf(std::int64_t ns) noexcept;
    static double bucketMidpoint(int bucket) noexcept;

    std::array<std::uint64_t, kSubBuckets * kOctaves> buckets_{};
    std::uint64_t count_ = 0;
    double sumNs_ = 0;
    std::int64_t maxNs_ = 0;
};

}  // namespace isochron
