// Robert Bristow-Johnson's "Audio EQ Cookbook" biquads: the peaking equalizer and the low and high
// shelves, the equalizer bands of mixing desks, with gain in dB at a centre or corner frequency.
#pragma once

#include "nodes/filters/biquad_section.h"

namespace isochron::filters {

/// The cookbook shapes Isochron offers.
enum class CookbookShape { Peaking, LowShelf, HighShelf };

/// What to design. [value type]
struct CookbookSpecification {
    CookbookShape shape = CookbookShape::Peaking;
    double frequencyHz = 1000.0;  ///< peak centre or shelf midpoint, 0 < f < rate / 2
    double gainDb = 6.0;          ///< boost (> 0) or cut (< 0) in dB
    double q = 0.7071;            ///< peaking: bandwidth as Q (> 0)
    double slope = 1.0;           ///< shelves: slope S (> 0; 1 = the steepest without a bump)
    double rateHz = 48000.0;
};

/// The section, normalized to a0 = 1. Throws std::invalid_argument for a frequency outside
/// (0, rate / 2), Q or slope <= 0, or a slope too steep for the gain (the cookbook's square root
/// turns negative). [any thread] [no allocation]
BiquadSection designCookbook(const CookbookSpecification& spec);

}  // namespace isochron::filters
