// segments.pass_through: forwards every item unchanged, by reference (the PASSCHAIN building block).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor passThroughDescriptor();

}  // namespace isochron
