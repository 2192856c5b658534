// Operator descriptors as JSON: the form plugin manifests use, so the palette and the graph
// validator can know a plugin's operators without loading its code, and the loader can compare
// what a manifest declares with what the binary registers.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/operators/descriptor.h"

namespace isochron {

/// The declarative part of `descriptor` (everything but create and deriveParams); fields at their
/// defaults (optional = false, no unit, ...) are left out. [setup thread] [may allocate]
nlohmann::ordered_json descriptorToJson(const OperatorDescriptor& descriptor);

/// The inverse of descriptorToJson, without a factory. Throws std::invalid_argument naming the
/// field ("params[1].kind: 'float' is not a parameter kind"). [setup thread] [may allocate]
OperatorDescriptor descriptorFromJson(const nlohmann::json& json);

/// One sentence per difference between a declared descriptor (from a manifest) and the actual one
/// (from the binary), ports and parameters matched by name, e.g. "input 'in', type: the manifest
/// says "signal<f64>", the binary "signal<f32>"", "parameter 'q' is in the binary but not in the
/// manifest", "parameters are in another order: ..."; empty when they agree. [setup thread] [may allocate]
std::vector<std::string> descriptorDifferences(const OperatorDescriptor& declared, const OperatorDescriptor& actual);

}  // namespace isochron
