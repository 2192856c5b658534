// Sums of shifted samples and of their squares: the core of every mean / variance in the stats and
// detect families, vectorized.
//
// Two implementations with one contract: AVX2+FMA (chosen at run time when the CPU has both; the
// functions carry __attribute__((target)), so release binaries still run on any x86-64) and a
// portable one. Both accumulate in float vectors and flush into double every kVectorsPerFlush
// vectors, which keeps the error of a float partial sum to ~64 additions while running at float speed.
//
// Split invariance: the summation order depends only on a sample's position in the accumulated
// sequence, never on how the sequence was handed over (one span or many, any sizes, any alignment).
// Vector k (samples 8k .. 8k+7) always goes to float accumulator k % 4, flushes happen after every
// kVectorsPerFlush vectors, and a final partial vector is padded with `shift` (which adds exactly 0).
// So a window's statistics are bit-identical whatever segments it was assembled from, and operators
// built on them give the same decisions for any split of their input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace isochron::kernels {

/// Sum of (x - shift) and of (x - shift)^2 over some samples. [value type]
struct SumAndSquares {
    double sum = 0.0;
    double sumSquares = 0.0;
};

/// Which implementation runs the vector loops.
enum class KernelPath { Portable, Avx2Fma };

/// Whether this CPU can run `path` (Portable: always). [any thread]
bool kernelPathSupported(KernelPath path);
/// The fastest path this CPU supports, decided once per process. [any thread]
KernelPath bestKernelPath();

/// Accumulates SumAndSquares over samples delivered in any number of pieces; the result is
/// bit-identical for every split of the same sequence (see the note at the top). [one thread] [no allocation]
class SumAndSquaresAccumulator {
public:
    /// Float vectors accumulated before their partial sums move into double (2048 samples).
    static constexpr std::uint32_t kVectorsPerFlush = 256;

    /// Start empty. `shift` should be close to the samples' mean (any one sample is a good choice);
    /// `path` must be supported by this CPU (kernelPathSupported).
    explicit SumAndSquaresAccumulator(float shift, KernelPath path = bestKernelPath());

    /// Add the next `count` samples of the sequence. [no allocation]
    void add(const float* samples, std::size_t count);
    /// Add the next samples of the sequence. [no allocation]
    void add(std::span<const float> samples) { add(samples.data(), samples.size()); }

    /// Samples added so far.
    std::uint64_t count() const noexcept { return count_; }
    /// The sums over everything added so far; the accumulator can keep going. [no allocation]
    SumAndSquares result() const;

    /// The accumulator's internal state, shared with the two implementations (not for callers).
    struct State {
        alignas(32) float partialSums[4][8];     // float accumulator k % 4 of vector k, per lane
        alignas(32) float partialSquares[4][8];
        alignas(32) double laneSums[8];          // flushed partial sums, per lane
        alignas(32) double laneSquares[8];
        alignas(32) float carry[8];              // samples of an incomplete vector, waiting for more
        std::uint32_t carryCount;
        std::uint32_t vectorsSinceFlush;         // 0 .. kVectorsPerFlush
    };

private:
    State state_;
    std::uint64_t count_ = 0;
    float shift_;
    KernelPath path_;
};

/// Sums of (x[i] - shift) and (x[i] - shift)^2 for i < count, on the fastest path. `shift` (same
/// unit as the samples) should be near their mean for accuracy. [any thread] [no allocation]
SumAndSquares sumAndSquares(const float* samples, std::size_t count, float shift);
/// The same on an explicit path (tests and benchmarks compare the two); `path` must be supported.
SumAndSquares sumAndSquares(KernelPath path, const float* samples, std::size_t count, float shift);

}  // namespace isochron::kernels
