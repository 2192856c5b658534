// io.null_sink: accepts items of any kind and discards them (ends a branch; measures throughput).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor nullSinkDescriptor();

}  // namespace isochron
