// detect.spectral_activity: array-wide noise floor per frequency bin and the presence of sound in
// every frame (custom<spatial.array_spectra> in, custom<detect.activity_frame> out).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor spectralActivityDescriptor();

}  // namespace isochron
