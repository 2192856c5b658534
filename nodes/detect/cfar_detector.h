// detect.cfar_detector: events where a detection score rises above its adaptive noise level (CFAR).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor cfarDetectorDescriptor();

}  // namespace isochron
