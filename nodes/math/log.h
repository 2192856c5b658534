// math.log: the logarithm of each sample (natural, base 10 or base 2).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor logDescriptor();

}  // namespace isochron
