// spectral.third_octave_bands: the power in each one-third-octave band (IEC 61260-1, base 10) of a
// power spectrum.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor thirdOctaveBandsDescriptor();

}  // namespace isochron
