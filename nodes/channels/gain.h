// channels.gain: scales every channel of a bus by a gain in dB (live); 0 dB passes by reference.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor gainDescriptor();

}  // namespace isochron
