// level.agc: automatic gain control towards a target RMS level, with a gain limit and attack/release.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor agcDescriptor();

}  // namespace isochron
