// channels.split: one interleaved signal (frames of N channels) into N signals, one per channel.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor splitDescriptor();

}  // namespace isochron
