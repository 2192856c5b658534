#include "nodes/spectral/window_functions.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace isochron {
namespace {

/// Coefficients (a0, a1, a2) of a generalized cosine window a0 - a1 cos(2 pi n/L) + a2 cos(4 pi n/L).
struct CosineTerms {
    double constant;
    double firstHarmonic;
    double secondHarmonic;
};

CosineTerms cosineTermsOf(WindowShape shape) {
    switch (shape) {
        case WindowShape::Hann: return {0.5, 0.5, 0.0};
        case WindowShape::Hamming: return {0.54, 0.46, 0.0};
        case WindowShape::Blackman: return {0.42, 0.5, 0.08};
        case WindowShape::None: break;
    }
    return {1.0, 0.0, 0.0};
}

}  // namespace

const std::vector<std::string>& windowShapeNames() {
    static const std::vector<std::string> names = {"none", "hann", "hamming", "blackman"};
    return names;
}

std::optional<WindowShape> windowShapeFromName(std::string_view name) {
    const auto& names = windowShapeNames();
    auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) return std::nullopt;
    return static_cast<WindowShape>(found - names.begin());
}

void fillWindow(WindowShape shape, std::span<float> coefficients) {
    const std::size_t length = coefficients.size();
    if (shape == WindowShape::None || length == 1) {
        std::fill(coefficients.begin(), coefficients.end(), 1.0f);
        return;
    }
    const CosineTerms terms = cosineTermsOf(shape);
    const double radiansPerSample = 2.0 * std::numbers::pi / static_cast<double>(length);
    for (std::size_t n = 0; n < length; ++n) {
        const double phase = radiansPerSample * static_cast<double>(n);
        coefficients[n] = static_cast<float>(terms.constant - terms.firstHarmonic * std::cos(phase) +
                                             terms.secondHarmonic * std::cos(2.0 * phase));
    }
}

}  // namespace isochron
