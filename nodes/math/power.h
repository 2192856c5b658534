// math.power: each sample raised to a constant power.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor powerDescriptor();

}  // namespace isochron
