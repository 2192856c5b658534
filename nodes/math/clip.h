// math.clip: each sample limited to [low, high] (live).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor clipDescriptor();

}  // namespace isochron
