#include "app/plugin_check/check_settings.h"

#include <cmath>

#include "isochron/ext/check.h"

namespace isochron::check {

CheckSettings checkSettingsFor(const PluginLibrary& library, const std::string& type) {
    CheckSettings settings;
    const auto* capability = static_cast<const isochron_check_extension*>(library.extension(ISOCHRON_EXT_CHECK));
    if (!capability) return settings;
    for (std::uint32_t i = 0; i < capability->operator_count; ++i) {
        const isochron_check_settings& entry = capability->operators[i];
        if (!entry.type_name || type != entry.type_name) continue;
        if (entry.params) {
            try {
                settings.params = nlohmann::json::parse(entry.params);
            } catch (const nlohmann::json::exception& e) {
                throw std::invalid_argument(std::string(ISOCHRON_EXT_CHECK) + ", operator '" + type + "': params is not JSON: " + e.what());
            }
            if (!settings.params.is_object()) {
                throw std::invalid_argument(std::string(ISOCHRON_EXT_CHECK) + ", operator '" + type + "': params must be a JSON object");
            }
        }
        if (!(entry.tolerance >= 0) || !std::isfinite(entry.tolerance)) {
            throw std::invalid_argument(std::string(ISOCHRON_EXT_CHECK) + ", operator '" + type + "': tolerance must be a finite number >= 0");
        }
        settings.splitInvariant = entry.split_invariant;
        settings.tolerance = entry.tolerance;
    }
    return settings;
}

}  // namespace isochron::check
