// math.abs: the absolute value of each sample.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor absDescriptor();

}  // namespace isochron
