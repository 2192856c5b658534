// Whether a new wire fits, decided by the engine's own validator (no second set of type rules).
#pragma once

#include <string>

#include "engine/graph/graph_spec.h"
#include "engine/operators/registry.h"

namespace isochron::ui {

/// Why the wire `edge` cannot be added to `graph`, as a sentence for the canvas, or empty if it fits.
/// A wire is refused when it makes the validator report a new problem (wrong port, types that do
/// not match here or downstream, an input already fed), except that an output whose type is still
/// open (a pass-through whose input is not connected yet) may be wired. [ui thread]
std::string wireRefusal(const GraphSpec& graph, const OperatorRegistry& registry, const EdgeSpec& edge);

}  // namespace isochron::ui
