#include "app/plugin_check/check_settings.h"

#include <cmath>

#include "isochron/ext/check.h"

namespace isochron::check {

CheckSettings checkSettingsFor(const PluginLibrary& library, const std::string& type) {
    CheckSettings settings;
    const auto* capability = static_cast<const CheckCapability*>(library.capability(kCheckCapabilityId));
    if (!capability) return settings;
    for (std::uint32_t i = 0; i < capability->operatorCount; ++i) {
        const OperatorCheckSettings& entry = capability->operators[i];
        if (!entry.typeName || type != entry.typeName) continue;
        if (entry.params) {
            try {
                settings.params = nlohmann::json::parse(entry.params);
            } catch (const nlohmann::json::exception& e) {
                throw std::invalid_argument(std::string(kCheckCapabilityId) + ", operator '" + type + "': params is not JSON: " + e.what());
            }
            if (!settings.params.is_object()) {
                throw std::invalid_argument(std::string(kCheckCapabilityId) + ", operator '" + type + "': params must be a JSON object");
            }
        }
        if (!(entry.tolerance >= 0) || !std::isfinite(entry.tolerance)) {
            throw std::invalid_argument(std::string(kCheckCapabilityId) + ", operator '" + type + "': tolerance must be a finite number >= 0");
        }
        settings.splitInvariant = entry.splitInvariant;
        settings.tolerance = entry.tolerance;
    }
    return settings;
}

}  // namespace isochron::check
