// resample.to_rate: resamples to a given output rate in Hz, any ratio (e.g. 16 kHz to 44.1 kHz or
// to a device's 47 999.7 Hz), through libsoxr (resampler.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor rateResamplerDescriptor();

}  // namespace isochron
