// spatial.gcc_phat: time differences of arrival of each mic relative to mic 0, per event, by GCC-PHAT.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor gccPhatDescriptor();

}  // namespace isochron
