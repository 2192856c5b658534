// stats.mean_filter: forwards the segments whose mean is below (or above) a threshold (XStream's
// STATFILTER, second stage).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor meanFilterDescriptor();

}  // namespace isochron
