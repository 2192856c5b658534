// spatial.array_stft: short-time spectra of every mic of an array, one custom<spatial.array_spectra>
// item per analysis frame (the front end of the frame-wise localization pipeline).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor arrayStftDescriptor();

}  // namespace isochron
