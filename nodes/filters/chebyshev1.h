// filters.chebyshev1: a Chebyshev type I lowpass, highpass, bandpass or bandstop as a biquad cascade.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor chebyshev1Descriptor();

}  // namespace isochron
