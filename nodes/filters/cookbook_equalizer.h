// The operator behind filters.peaking_eq, filters.low_shelf and filters.high_shelf: one cookbook
// biquad (cookbook_design.h) with live frequency, gain and Q or slope.
#pragma once

#include "engine/operators/descriptor.h"
#include "nodes/filters/cookbook_design.h"

namespace isochron {

/// A descriptor for the cookbook equalizer of `shape`, named `typeName`, with `summary` for the palette. [setup]
OperatorDescriptor cookbookEqualizerDescriptor(filters::CookbookShape shape, std::string typeName, std::string summary);

}  // namespace isochron
