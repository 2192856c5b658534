// generators.signal_generator: a synthetic f32 test signal (sine, Gaussian noise, linear chirp or
// clicks) whose sample n depends only on n and the parameters, never on how it is cut into blocks.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor signalGeneratorDescriptor();

}  // namespace isochron
