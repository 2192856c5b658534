// math.scale: each sample times a constant plus an offset (live): a signal times a constant.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor scaleDescriptor();

}  // namespace isochron
