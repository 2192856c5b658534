// filters.dc_blocker: removes the DC offset (and drift slower than a cutoff) with the one-pole,
// one-zero highpass y[n] = g (x[n] - x[n-1]) + R y[n-1].
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor dcBlockerDescriptor();

}  // namespace isochron
