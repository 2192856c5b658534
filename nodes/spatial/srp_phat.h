// spatial.srp_phat: direction of arrival per event by SRP-PHAT over an azimuth (and elevation) grid.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor srpPhatDescriptor();

}  // namespace isochron
