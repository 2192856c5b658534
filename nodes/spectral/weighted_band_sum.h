// spectral.weighted_band_sum: one score per frame, the weighted sum of its bins (DETECTAUDIO's
// detection score).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor weightedBandSumDescriptor();

}  // namespace isochron
