// What a descriptor must say beyond what the registry enforces, so palettes, inspectors and
// validation have something to show: a "family.name" type, a category and summary, a doc on
// every port and parameter, and a range on every numeric parameter.
#pragma once

#include <string>
#include <vector>

#include "engine/operators/descriptor.h"

namespace isochron::check {

/// One sentence per shortcoming of `descriptor`; empty when it has none. [any thread]
std::vector<std::string> descriptorShortcomings(const OperatorDescriptor& descriptor);

}  // namespace isochron::check
