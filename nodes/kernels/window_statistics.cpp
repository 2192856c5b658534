#include "nodes/kernels/window_statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace isochron::kernels {
namespace {

// Mean and population stddev from sums of (x - shift) over `count` samples (NaN for count 0).
WindowStatistics statisticsFromSums(const SumAndSquares& sums, std::int64_t count, float shift) {
    if (count == 0) {
        constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();
        return {0, kUndefined, kUndefined};
    }
    const double n = static_cast<double>(count);
    const double centeredMean = sums.sum / n;
    // Shifting by a sample keeps the two terms close to the variance itself, so the subtraction
    // loses little; rounding can still leave it a hair below zero for constant input.
    const double variance = std::max(0.0, sums.sumSquares / n - centeredMean * centeredMean);
    return {count, static_cast<double>(shift) + centeredMean, std::sqrt(variance)};
}

// The last few windows whose statistics were computed on this thread. Operators in a row often
// ask about the same window (a stddev filter, then a mean filter). Windows are named by their
// storage identity and range, which no other samples ever share, so nothing is held alive.
struct RecentWindows {
    static constexpr std::size_t kEntries = 4;
    struct Entry {
        std::uint64_t identity = 0;  // 0: empty
        std::int64_t start = 0;
        std::int64_t length = 0;
        KernelPath path = KernelPath::Portable;
        WindowStatistics statistics;
    };
    std::array<Entry, kEntries> entries;
    std::size_t next = 0;

    const WindowStatistics* find(const SegmentHandle& samples, KernelPath path) const {
        const std::uint64_t identity = samples.storageIdentity();
        for (const Entry& e : entries) {
            if (e.identity == identity && e.start == samples.startIndex() && e.length == samples.length() && e.path == path) {
                return &e.statistics;
            }
        }
        return nullptr;
    }
    void remember(const SegmentHandle& samples, KernelPath path, const WindowStatistics& statistics) {
        entries[next] = {samples.storageIdentity(), samples.startIndex(), samples.length(), path, statistics};
        next = (next + 1) % kEntries;
    }
};

// Storage for an accumulator constructed later, once its shift is known (it needs no destructor).
struct LazyAccumulator {
    static_assert(std::is_trivially_destructible_v<SumAndSquaresAccumulator>);
    LazyAccumulator() {}
    union {
        SumAndSquaresAccumulator accumulator;
    };
};

RecentWindows& recentWindows() {
    thread_local RecentWindows recent;
    return recent;
}

}  // namespace

WindowStatistics windowStatistics(const SegmentHandle& samples, KernelPath path) {
    if (samples.empty()) return statisticsFromSums({}, 0, 0.0f);
    RecentWindows& recent = recentWindows();
    if (const WindowStatistics* known = recent.find(samples, path)) return *known;
    if (samples.sampleType() != SampleType::Float32) {
        throw std::invalid_argument("windowStatistics: the segment holds " + std::string(sampleTypeName(samples.sampleType())) +
                                    " samples, not f32");
    }
    // The first sample is the shift: any sample of the window keeps the sums small. The accumulator
    // starts on the first run, so the pieces are walked once (a window's list may begin with pieces
    // it no longer views, and each walk skips them); it is built in place, not in a std::optional,
    // whose payload the compiler zeroed on every call.
    float shift = 0.0f;
    LazyAccumulator lazy;
    bool started = false;
    samples.forEachRun([&](const std::byte* data, std::int64_t count) {
        const float* run = reinterpret_cast<const float*>(data);
        if (!started) {
            shift = run[0];
            std::construct_at(&lazy.accumulator, shift, path);
            started = true;
        }
        lazy.accumulator.add(run, static_cast<std::size_t>(count));
    });
    const SumAndSquaresAccumulator& accumulator = lazy.accumulator;
    const WindowStatistics statistics = statisticsFromSums(accumulator.result(), samples.length(), shift);
    recent.remember(samples, path, statistics);
    return statistics;
}

}  // namespace isochron::kernels
