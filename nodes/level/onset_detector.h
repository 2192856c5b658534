// level.onset_detector: an event where the signal's level jumps (a fast envelope rises above a slow one).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor onsetDetectorDescriptor();

}  // namespace isochron
