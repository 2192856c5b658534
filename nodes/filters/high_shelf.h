// filters.high_shelf: boost or cut above a frequency, one biquad from the Audio EQ Cookbook (cookbook_equalizer.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor highShelfDescriptor();

}  // namespace isochron
