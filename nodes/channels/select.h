// channels.select: picks, reorders or repeats channels of a bus by index, by reference (no sample is copied).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor selectDescriptor();

}  // namespace isochron
