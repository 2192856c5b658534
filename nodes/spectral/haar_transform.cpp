#include "nodes/spectral/haar_transform.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace isochron {

int haarLevelCount(std::int64_t length) {
    if (length <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(length))) return -1;
    return std::countr_zero(static_cast<std::uint64_t>(length));
}

HaarBand haarDetailBand(std::int64_t length, int level) {
    const std::int64_t bandLength = length >> level;
    return {bandLength, bandLength};
}

void haarForward(std::span<float> values, int levels, std::span<float> scratch) {
    const float inverseSqrt2 = static_cast<float>(1.0 / std::sqrt(2.0));
    std::size_t runLength = values.size();
    for (int level = 0; level < levels; ++level) {
        const std::size_t half = runLength / 2;
        // Approximation i overwrites values[i], which is never read again: pairs are read at 2i >= i.
        for (std::size_t i = 0; i < half; ++i) {
            const float even = values[2 * i];
            const float odd = values[2 * i + 1];
            values[i] = (even + odd) * inverseSqrt2;
            scratch[i] = (even - odd) * inverseSqrt2;
        }
        std::copy_n(scratch.begin(), half, values.begin() + static_cast<std::ptrdiff_t>(half));
        runLength = half;
    }
}

}  // namespace isochron
