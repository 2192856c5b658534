#include "nodes/filters/cookbook_design.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "nodes/filters/frequency_text.h"

namespace isochron::filters {

BiquadSection designCookbook(const CookbookSpecification& spec) {
    if (!(spec.frequencyHz > 0.0 && spec.frequencyHz < spec.rateHz / 2.0)) {
        throw std::invalid_argument("frequency_hz (" + hertzText(spec.frequencyHz) + ") must lie between 0 Hz and half the rate (" +
                                    hertzText(spec.rateHz / 2.0) + ")");
    }
    if (!(spec.q > 0.0) || !(spec.slope > 0.0)) throw std::invalid_argument("Q and slope must be above 0");
    const double amplitude = std::pow(10.0, spec.gainDb / 40.0);
    const double w0 = 2.0 * std::numbers::pi * spec.frequencyHz / spec.rateHz;
    const double cosW0 = std::cos(w0);
    const double sinW0 = std::sin(w0);
    double b0, b1, b2, a0, a1, a2;
    if (spec.shape == CookbookShape::Peaking) {
        const double alpha = sinW0 / (2.0 * spec.q);
        b0 = 1.0 + alpha * amplitude;
        b1 = -2.0 * cosW0;
        b2 = 1.0 - alpha * amplitude;
        a0 = 1.0 + alpha / amplitude;
        a1 = -2.0 * cosW0;
        a2 = 1.0 - alpha / amplitude;
    } else {
        const double radicand = (amplitude + 1.0 / amplitude) * (1.0 / spec.slope - 1.0) + 2.0;
        if (!(radicand >= 0.0)) throw std::invalid_argument("the shelf slope is too steep for this gain");
        const double alpha = sinW0 / 2.0 * std::sqrt(radicand);
        const double twoRootAAlpha = 2.0 * std::sqrt(amplitude) * alpha;
        const double plus = amplitude + 1.0, minus = amplitude - 1.0;
        if (spec.shape == CookbookShape::LowShelf) {
            b0 = amplitude * (plus - minus * cosW0 + twoRootAAlpha);
            b1 = 2.0 * amplitude * (minus - plus * cosW0);
            b2 = amplitude * (plus - minus * cosW0 - twoRootAAlpha);
            a0 = plus + minus * cosW0 + twoRootAAlpha;
            a1 = -2.0 * (minus + plus * cosW0);
            a2 = plus + minus * cosW0 - twoRootAAlpha;
        } else {
            b0 = amplitude * (plus + minus * cosW0 + twoRootAAlpha);
            b1 = -2.0 * amplitude * (minus + plus * cosW0);
            b2 = amplitude * (plus + minus * cosW0 - twoRootAAlpha);
            a0 = plus - minus * cosW0 + twoRootAAlpha;
            a1 = 2.0 * (minus - plus * cosW0);
            a2 = plus - minus * cosW0 - twoRootAAlpha;
        }
    }
    return {b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0};
}

}  // namespace isochron::filters
