// One run of an operator under test: check.feed nodes on its inputs, check.capture nodes on its
// outputs, the real engine (depth-first scheduler) in between.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/plugin_check/harness_operators.h"
#include "engine/operators/registry.h"

namespace isochron::check {

/// What came out of one run. [value type]
struct HarnessResult {
    std::vector<std::vector<Item>> outputs;  ///< per output port of the operator under test
    std::vector<std::string> failures;       ///< the operator's fault, or why the graph did not start
    AllocationWindow allocations;            ///< filled when the run counted allocations
};

/// Run `type` with parameters `params` (a JSON object) on `inputs` (one script per input port, in
/// port order, of the types `inputTypes`). With `countAllocations`, outputs are dropped as they
/// arrive and malloc calls are counted over the steady part of the run. A source under test is
/// stopped after `sourceSeconds` of wall time if it has not finished. [checker thread] [may allocate]
HarnessResult runHarness(const OperatorRegistry& registry, const std::string& type, const nlohmann::json& params,
                         std::vector<FeedScript> inputs, const std::vector<PortType>& inputTypes, bool countAllocations,
                         double sourceSeconds = 2.0);

/// The parameters `params` (JSON) gives, with defaults for the rest; values that do not validate
/// keep the default (the run then reports the problem). [any thread]
ParamSet parametersWithDefaults(const OperatorDescriptor& descriptor, const nlohmann::json& params);

}  // namespace isochron::check
