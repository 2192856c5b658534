// The operator reference (docs/operators.md): every built-in operator's ports, parameters (unit,
// range, default, live or not) and documentation as Markdown, written from the descriptors, so it
// says exactly what the palette, the validator and --list-operators say.
#pragma once

#include <ostream>

#include "engine/operators/registry.h"

namespace isochron::run {

/// Write the reference of the built-in operators in `registry` (plugins' operators are left out),
/// grouped by family in registration order. [any thread] [may allocate]
void writeOperatorReference(const OperatorRegistry& registry, std::ostream& out);

}  // namespace isochron::run
