// level.peak_meter: Peak level meter with ballistics (instant attack, slow release), in dBFS.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor peakMeterDescriptor();

}  // namespace isochron
