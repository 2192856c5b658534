// The orthonormal multi-level Haar wavelet transform, in place.
//
// One level maps a run of m values x to m/2 approximations a_i = (x_2i + x_2i+1) / sqrt(2) followed by
// m/2 details d_i = (x_2i - x_2i+1) / sqrt(2); the next level transforms the approximations again.
// After `levels` levels a window of N = 2^J values holds the standard in-place ordering
//   [approximation L | detail L | detail L-1 | ... | detail 1]
// where detail j (1 = finest) has N / 2^j values starting at offset N / 2^j, and the approximation
// has N / 2^L values at offset 0. Orthonormal: the sum of squares is preserved exactly (up to rounding).
#pragma once

#include <cstdint>
#include <span>

namespace isochron {

/// log2(length) when length is a power of two (1, 2, 4, ...), else -1: the most levels a window of
/// `length` values can take. [no allocation]
int haarLevelCount(std::int64_t length);

/// Where one detail band lies in a transform of `length` values (a power of two). [value type]
struct HaarBand {
    std::int64_t offset;  ///< index of the band's first coefficient
    std::int64_t length;  ///< number of coefficients
};

/// The detail band of `level` (1 = finest, up to haarLevelCount(length)). [no allocation]
HaarBand haarDetailBand(std::int64_t length, int level);

/// Transform `values` (length a power of two) in place by `levels` levels, 0 <= levels <=
/// haarLevelCount(values.size()), into the ordering above. `scratch` must hold at least
/// values.size() / 2 floats; its contents are overwritten. [any thread] [no allocation]
void haarForward(std::span<float> values, int levels, std::span<float> scratch);

}  // namespace isochron
