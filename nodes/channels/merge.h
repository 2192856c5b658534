// channels.merge: N signals interleaved into one signal of frames (channel k = input k).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor mergeDescriptor();

}  // namespace isochron
