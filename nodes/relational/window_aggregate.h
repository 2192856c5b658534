// relational.window_aggregate: WID windowed aggregation, order-agnostic, closed by punctuation.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "relational.window_aggregate".
OperatorDescriptor windowAggregateDescriptor();

}  // namespace isochron
