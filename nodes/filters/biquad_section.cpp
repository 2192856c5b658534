#include "nodes/filters/biquad_section.h"

#include <numbers>

namespace isochron::filters {

std::complex<double> cascadeResponse(std::span<const BiquadSection> sections, double hz, double rateHz) {
    const std::complex<double> zInverse = std::polar(1.0, -2.0 * std::numbers::pi * hz / rateHz);
    std::complex<double> response = 1.0;
    for (const BiquadSection& s : sections) {
        response *= (s.b0 + zInverse * (s.b1 + zInverse * s.b2)) / (1.0 + zInverse * (s.a1 + zInverse * s.a2));
    }
    return response;
}

}  // namespace isochron::filters
