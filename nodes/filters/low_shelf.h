// filters.low_shelf: boost or cut below a frequency, one biquad from the Audio EQ Cookbook (cookbook_equalizer.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor lowShelfDescriptor();

}  // namespace isochron
