// channels.mix: M outputs, each a weighted sum of N aligned inputs (a mixing matrix, live).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor mixDescriptor();

}  // namespace isochron
