#include "nodes/math/decibels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// log10(x) for a normal, positive, finite float, within 2 ulp: Cephes' logf (a degree-9 polynomial
/// of the mantissa) written without branches or calls, so a loop over it vectorises (glibc's log10f
/// is a call per sample, three times slower than numpy's SIMD logarithm).
inline float log10OfNormal(float x) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    float exponent = static_cast<float>(static_cast<int>((bits >> 23) & 0xffu) - 126);  // x = m 2^e, m in [0.5, 1)
    float m = std::bit_cast<float>((bits & 0x007fffffu) | 0x3f000000u);
    const bool below = m < 0.707106781f;  // fold m into [sqrt(1/2), sqrt(2)) around 1
    exponent -= below ? 1.0f : 0.0f;
    m = (below ? m + m : m) - 1.0f;
    const float z = m * m;
    float y = ((((((((7.0376836292e-2f * m - 1.1514610310e-1f) * m + 1.1676998740e-1f) * m - 1.2420140846e-1f) * m + 1.4249322787e-1f) * m -
                   1.6668057665e-1f) * m + 2.0000714765e-1f) * m - 2.4999993993e-1f) * m + 3.3333331174e-1f);
    y = y * m * z - 2.12194440e-4f * exponent - 0.5f * z;
    return (m + y + 0.693359375f * exponent) * 0.434294482f;
}

/// out[i] = factor log10 |in[i]|, or `floor` where |in[i]| <= `smallest`; infinity stays infinite and
/// NaN NaN. Selects, not branches, so that the loop vectorises; compiled for AVX2 too (picked at run
/// time on CPUs that have it: the build is portable x86-64).
__attribute__((target_clones("avx2", "default"))) void decibelsOf(const float* in, std::size_t count, float* out, float factor, float floor,
                                                                   float smallest) {
    constexpr float kLargest = std::numeric_limits<float>::max();
    for (std::size_t i = 0; i < count; ++i) {
        const float magnitude = std::fabs(in[i]);
        float clamped = magnitude < smallest ? smallest : magnitude;
        clamped = clamped > kLargest ? kLargest : clamped;
        float level = factor * log10OfNormal(clamped);
        level = magnitude <= smallest ? floor : level;
        level = magnitude > kLargest ? magnitude : level;
        out[i] = magnitude != magnitude ? magnitude : level;
    }
}

/// out = max(k log10 |in|, floor_db) with k = 20 (amplitude) or 10 (power).
class Decibels final : public SampleMapOperator {
protected:
    void onActivate() override {
        factor_ = params().getString("quantity") == "power" ? 10.0f : 20.0f;
        floor_ = static_cast<float>(params().getReal("floor_db"));
        // floor_db >= -300 keeps this a normal float for both quantities.
        smallest_ = static_cast<float>(std::pow(10.0, params().getReal("floor_db") / factor_));
    }

    void map(std::span<const float> in, float* out) const override { decibelsOf(in.data(), in.size(), out, factor_, floor_, smallest_); }

private:
    float factor_ = 20.0f;
    float floor_ = -120.0f;
    float smallest_ = 1e-6f;  // the magnitude whose level is floor_
};

}  // namespace

OperatorDescriptor decibelsDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor(
        "math.decibels", "Level of each sample in dB (amplitude or power)",
        "amplitude: 20 log10 |x|; power: 10 log10 |x|; never below floor_db (a zero sample reads floor_db, not -inf). "
        "Infinity stays infinite and NaN NaN. The logarithm is a vectorised polynomial, accurate to 2e-5 dB or 2e-7 of the level, whichever is larger.");
    d.params = {
        ParamSpec{"quantity", ParamKind::Choice, std::string("amplitude"), {}, {}, "",
                  "amplitude (20 log10 |x|) or power (10 log10 |x|)", {"amplitude", "power"}},
        ParamSpec{"floor_db", ParamKind::Real, -120.0, -300.0, 0.0, "dB", "the lowest level reported"},
    };
    d.create = [] { return std::make_unique<Decibels>(); };
    return d;
}

}  // namespace isochron
