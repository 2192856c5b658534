// math.add: a + b, sample by sample, of two aligned signals.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor addDescriptor();

}  // namespace isochron
