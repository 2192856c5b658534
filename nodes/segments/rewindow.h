// segments.rewindow: re-cuts a signal into windows of `window` samples every `hop` samples,
// sharing the input's storage (no sample is copied).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor rewindowDescriptor();

}  // namespace isochron
