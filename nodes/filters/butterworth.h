// filters.butterworth: a Butterworth lowpass, highpass, bandpass or bandstop as a biquad cascade.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor butterworthDescriptor();

}  // namespace isochron
