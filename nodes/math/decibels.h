// math.decibels: each sample's level in dB (amplitude 20 log10 |x| or power 10 log10 |x|), floored.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor decibelsDescriptor();

}  // namespace isochron
