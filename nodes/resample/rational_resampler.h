// resample.rational: changes the rate by an exact fraction up / down (e.g. 160 / 147 for 44.1 kHz
// to 48 kHz) through libsoxr (resampler.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor rationalResamplerDescriptor();

}  // namespace isochron
