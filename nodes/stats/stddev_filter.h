// stats.stddev_filter: forwards the segments whose population standard deviation is above (or
// below) a threshold (XStream's STATFILTER, first stage).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor stddevFilterDescriptor();

}  // namespace isochron
