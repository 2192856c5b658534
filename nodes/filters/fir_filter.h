// filters.fir: a linear-phase FIR lowpass, highpass, bandpass or bandstop designed by the window
// method (fir_design.h), run in direct form or by FFT convolution (fir_convolver.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor firFilterDescriptor();

}  // namespace isochron
