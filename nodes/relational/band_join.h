// relational.band_join: pairs of items from two streams within a time band, order-agnostic.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "relational.band_join".
OperatorDescriptor bandJoinDescriptor();

}  // namespace isochron
