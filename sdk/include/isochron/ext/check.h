// Capability "isochron.check/1": how isochron-plugin-check should exercise a plugin's operators.
//
// Without it the checker runs every operator with its default parameters and expects outputs that
// do not depend on how the input was split into segments. Operators whose results legitimately
// depend on segment boundaries (one value per input segment, say) declare that here, and ones that
// need other parameters to do anything interesting name them.
#pragma once

#include <cstdint>

namespace isochron {

/// The versioned id to pass to PluginTable::capability.
inline constexpr char kCheckCapabilityId[] = "isochron.check/1";

/// Check settings for one operator type. [immutable, static storage]
struct OperatorCheckSettings {
    const char* typeName;  ///< the operator type these settings are for
    const char* params;    ///< JSON object of parameter values to check with, e.g. {"q": 2}; null = defaults
    bool splitInvariant;   ///< outputs must be the same however the input is split into segments
    double tolerance;      ///< largest absolute difference between outputs of two splits, in the output's unit (>= 0)
};

/// What the capability pointer points to. [immutable, static storage]
struct CheckCapability {
    std::uint32_t operatorCount;              ///< entries in `operators`
    const OperatorCheckSettings* operators;   ///< operators without an entry use the defaults above
};

}  // namespace isochron
