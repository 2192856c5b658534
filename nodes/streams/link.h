// streams.link: a simulated network link: delay and jitter in stream time, deterministic.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "streams.link".
OperatorDescriptor linkDescriptor();

}  // namespace isochron
