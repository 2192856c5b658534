// Reading fields of JSON objects with errors that name the field, for manifests and descriptors.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

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
    try {
        return object.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(where + "." + key + ": has the wrong type (" + object.at(key).dump() + ")");
    }
}

}  // namespace isochron
