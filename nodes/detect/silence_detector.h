// detect.silence_detector: finds the stretches of a signal that are not silent (windows whose
// standard deviation exceeds a threshold) and emits each as a time range.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor silenceDetectorDescriptor();

}  // namespace isochron
