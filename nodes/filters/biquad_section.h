// One second-order section (biquad) H(z) = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2),
// the unit the IIR designs produce and the cascade runs; the same layout as a row of scipy's
// `sos` array [b0, b1, b2, 1, a1, a2].
#pragma once

#include <complex>
#include <span>
#include <vector>

namespace isochron::filters {

/// Coefficients of one biquad, a0 normalized to 1. [value type]
struct BiquadSection {
    double b0 = 1.0, b1 = 0.0, b2 = 0.0;
    double a1 = 0.0, a2 = 0.0;
};

/// The cascade's frequency response at `hz` for a sampling rate `rateHz`. [any thread] [no allocation]
std::complex<double> cascadeResponse(std::span<const BiquadSection> sections, double hz, double rateHz);

}  // namespace isochron::filters
