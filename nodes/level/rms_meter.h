// level.rms_meter: RMS level meter with ballistics (attack/release), in dBFS.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor rmsMeterDescriptor();

}  // namespace isochron
