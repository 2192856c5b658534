#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "nodes/kernels/sum_and_squares.h"

using namespace isochron::kernels;

namespace {

std::vector<KernelPath> supportedPaths() {
    std::vector<KernelPath> paths{KernelPath::Portable};
    if (kernelPathSupported(KernelPath::Avx2Fma)) paths.push_back(KernelPath::Avx2Fma);
    return paths;
}

const char* pathName(KernelPath path) { return path == KernelPath::Avx2Fma ? "avx2+fma" : "portable"; }

// Gaussian noise around `offset`: a large mean against a small spread is what the shift is for.
std::vector<float> noise(std::size_t count, double offset, double spread, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<double> gaussian(offset, spread);
    std::vector<float> samples(count);
    for (auto& s : samples) s = static_cast<float>(gaussian(random));
    return samples;
}

struct Reference {
    double mean = 0;
    double stddev = 0;
    double shiftedSum = 0;
    double shiftedSquares = 0;
    double shiftedMagnitude = 0;  // sum of |x - shift|, the scale of the sum's rounding error
};

// Naive double-precision two-pass statistics.
Reference reference(const float* x, std::size_t n, float shift) {
    Reference r;
    for (std::size_t i = 0; i < n; ++i) {
        double centered = double(x[i]) - double(shift);
        r.shiftedSum += centered;
        r.shiftedSquares += centered * centered;
        r.shiftedMagnitude += std::abs(centered);
        r.mean += x[i];
    }
    if (n == 0) return r;
    r.mean /= double(n);
    double squares = 0;
    for (std::size_t i = 0; i < n; ++i) squares += (x[i] - r.mean) * (x[i] - r.mean);
    r.stddev = std::sqrt(squares / double(n));
    return r;
}

}  // namespace

TEST_CASE("sumAndSquares matches a double two-pass reference for every length and alignment",
          "[kernels][sum_and_squares]") {
    const std::vector<float> data = noise(5000 + 16, 100.0, 3.0, 17);
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
    for (std::size_t n = 301; n <= 5000; n += 37) lengths.push_back(n);
    for (std::size_t n : {2047u, 2048u, 2049u, 4095u, 4096u, 4097u, 5000u}) lengths.push_back(n);
    for (KernelPath path : supportedPaths()) {
        INFO("path " << pathName(path));
        for (std::size_t offset = 0; offset < 8; ++offset) {
            const float* x = data.data() + offset;  // offsets 1..7 are not 32-byte aligned
            for (std::size_t n : lengths) {
                INFO("length " << n << ", offset " << offset);
                const float shift = n > 0 ? x[n / 2] : 0.0f;
                const SumAndSquares got = sumAndSquares(path, x, n, shift);
                const Reference want = reference(x, n, shift);
                // Each x - shift is rounded to float once (relative 6e-8); partial sums add ~64 more
                // float roundings before they reach double.
                CHECK(std::abs(got.sum - want.shiftedSum) <= 1e-5 * want.shiftedMagnitude + 1e-9);
                CHECK(std::abs(got.sumSquares - want.shiftedSquares) <= 1e-5 * want.shiftedSquares + 1e-9);
                if (n > 0) {
                    const double mean = shift + got.sum / double(n);
                    const double variance = got.sumSquares / double(n) - (got.sum / double(n)) * (got.sum / double(n));
                    CHECK(mean == Approx(want.mean).epsilon(1e-7));
                    CHECK(std::sqrt(std::max(variance, 0.0)) == Approx(want.stddev).epsilon(1e-5).margin(1e-6));
                }
            }
        }
    }
}

TEST_CASE("sumAndSquares of nothing is zero and of a constant shifted by itself is exactly zero",
          "[kernels][sum_and_squares]") {
    const std::vector<float> constant(3001, 0.75f);
    for (KernelPath path : supportedPaths()) {
        INFO("path " << pathName(path));
        SumAndSquares empty = sumAndSquares(path, constant.data(), 0, 0.75f);
        CHECK(empty.sum == 0.0);
        CHECK(empty.sumSquares == 0.0);
        SumAndSquares flat = sumAndSquares(path, constant.data(), constant.size(), 0.75f);
        CHECK(flat.sum == 0.0);
        CHECK(flat.sumSquares == 0.0);
        SumAndSquares unshifted = sumAndSquares(path, constant.data(), constant.size(), 0.0f);
        CHECK(unshifted.sum == 0.75 * 3001);
        CHECK(unshifted.sumSquares == 0.5625 * 3001);
    }
}

TEST_CASE("the AVX2 and portable paths agree to float rounding", "[kernels][sum_and_squares]") {
    if (!kernelPathSupported(KernelPath::Avx2Fma)) {
        WARN("this CPU has no AVX2+FMA: only the portable path is tested");
        return;
    }
    const std::vector<float> data = noise(4099, -20.0, 0.5, 5);
    for (std::size_t n : {1u, 7u, 8u, 33u, 1000u, 4096u, 4099u}) {
        INFO("length " << n);
        SumAndSquares portable = sumAndSquares(KernelPath::Portable, data.data(), n, data[0]);
        SumAndSquares vector = sumAndSquares(KernelPath::Avx2Fma, data.data(), n, data[0]);
        CHECK(vector.sum == Approx(portable.sum).epsilon(1e-5).margin(1e-6));
        CHECK(vector.sumSquares == Approx(portable.sumSquares).epsilon(1e-5));
    }
}

TEST_CASE("the accumulator gives bit-identical sums for any split of the samples", "[kernels][sum_and_squares]") {
    const std::vector<float> data = noise(9000, 3.0, 1.0, 23);
    std::mt19937 random(99);
    for (KernelPath path : supportedPaths()) {
        INFO("path " << pathName(path));
        for (std::size_t n : {0u, 5u, 31u, 2048u, 2053u, 9000u}) {
            const SumAndSquares whole = sumAndSquares(path, data.data(), n, data[0]);
            for (int trial = 0; trial < 20; ++trial) {
                INFO("length " << n << ", trial " << trial);
                SumAndSquaresAccumulator accumulator(data[0], path);
                std::uniform_int_distribution<std::size_t> pieceLength(0, trial < 10 ? 9 : 700);
                for (std::size_t at = 0; at < n;) {
                    std::size_t take = std::min(pieceLength(random), n - at);
                    accumulator.add(data.data() + at, take);
                    at += take;
                }
                const SumAndSquares pieces = accumulator.result();
                CHECK(accumulator.count() == n);
                CHECK(std::memcmp(&pieces.sum, &whole.sum, sizeof(double)) == 0);
                CHECK(std::memcmp(&pieces.sumSquares, &whole.sumSquares, sizeof(double)) == 0);
            }
        }
    }
}

TEST_CASE("the accumulator's result is a snapshot: adding more continues the same sums", "[kernels][sum_and_squares]") {
    const std::vector<float> data = noise(3000, 0.0, 1.0, 41);
    for (KernelPath path : supportedPaths()) {
        INFO("path " << pathName(path));
        SumAndSquaresAccumulator accumulator(0.5f, path);
        accumulator.add(data.data(), 1234);
        const SumAndSquares early = accumulator.result();
        const SumAndSquares earlyWhole = sumAndSquares(path, data.data(), 1234, 0.5f);
        accumulator.add(data.data() + 1234, data.size() - 1234);
        const SumAndSquares late = accumulator.result();
        const SumAndSquares lateWhole = sumAndSquares(path, data.data(), data.size(), 0.5f);
        CHECK(early.sum == earlyWhole.sum);
        CHECK(early.sumSquares == earlyWhole.sumSquares);
        CHECK(late.sum == lateWhole.sum);
        CHECK(late.sumSquares == lateWhole.sumSquares);
    }
}
