// filters.peaking_eq: boost or cut around a frequency, one biquad from the Audio EQ Cookbook (cookbook_equalizer.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor peakingEqDescriptor();

}  // namespace isochron
