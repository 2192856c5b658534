// segments.sync: for each control time range, emits the part of every data signal covering its time
// span (copy-free), so detections made on one stream select the matching samples of others.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor syncDescriptor();

}  // namespace isochron
