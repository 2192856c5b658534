// spatial.frame_directions: several directions of sound in every frame of an array, by SRP-PHAT over
// the bins that hold sound, with the steady background's cross-spectra subtracted
// (custom<detect.activity_frame> in, custom<spatial.direction_frame> out).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor frameDirectionsDescriptor();

}  // namespace isochron
