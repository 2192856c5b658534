// How the checker exercises one operator: from the plugin's "isochron.check/1" capability, or the
// defaults (default parameters, split-invariant outputs, tolerance 1e-6).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/plugins/plugin_library.h"

namespace isochron::check {

/// Settings for one operator type. [value type]
struct CheckSettings {
    nlohmann::json params = nlohmann::json::object();  ///< parameter values to run with
    bool splitInvariant = true;                         ///< a split that changes the output is a problem
    double tolerance = 1e-6;                            ///< absolute, in the output's unit
};

/// The settings `library` gives for `type`, or the defaults. Throws std::invalid_argument when the
/// capability's parameter text is not a JSON object or its tolerance is negative. [setup thread]
CheckSettings checkSettingsFor(const PluginLibrary& library, const std::string& type);

}  // namespace isochron::check
