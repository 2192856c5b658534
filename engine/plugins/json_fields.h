// Reading fields of JSON objects with errors that name the field, for manifests and descriptors.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

namespace isochron {

/// `object[key]` as T; throws std::invalid_argument "<where>.<key>: missing" (unless `fallback`
/// is given) or "<where>.<key>: has the wrong type (...)". [any thread] [may allocate]
template <class T>
T jsonField(const nlohmann::json& object, const char* key, const std::string& where, std::optional<T> fallback = {}) {
    if (!object.contains(key)) {
        if (fallback) return *fallback;
        throw std::invalid_argument(where + "." + key + ": missing");
    }
    const nlohmann::json& value = object.at(key);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // nlohmann converts any number with a plain cast: a float or an out-of-range integer would be
        // undefined behaviour (found by fuzz_plugin_manifest), so only exact, representable integers pass.
        const bool representable = value.is_number_unsigned()  ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                                   : value.is_number_integer() ? std::in_range<T>(value.get<std::int64_t>())
                                                               : false;
        if (!representable) throw std::invalid_argument(where + "." + key + ": must be an integer from " + std::to_string(std::numeric_limits<T>::min()) +
                                                        " to " + std::to_string(std::numeric_limits<T>::max()) + " (it is " + value.dump() + ")");
    }
    try {
        return value.get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(where + "." + key + ": has the wrong type (" + value.dump() + ")");
    }
}

}  // namespace isochron
