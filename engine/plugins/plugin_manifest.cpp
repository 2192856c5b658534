#include "engine/plugins/plugin_manifest.h"

#include <fstream>
#include <stdexcept>

#include "engine/plugins/descriptor_json.h"
#include "engine/plugins/plugin_error.h"

namespace isochron {

std::filesystem::path manifestPathFor(const std::filesystem::path& library) {
    std::filesystem::path manifest = library;
    manifest.replace_extension(".manifest.json");
    return manifest;
}

PluginManifest pluginManifestFromJson(const nlohmann::json& json) {
    if (!json.is_object()) throw std::invalid_argument("the manifest must be a JSON object");
    if (json.value("format", std::string()) != kPluginManifestFormat) {
        throw std::invalid_argument(std::string("format: expected \"") + kPluginManifestFormat + "\"");
    }
    PluginManifest manifest;
    try {
        manifest.name = json.at("name").get<std::string>();
        manifest.version = json.at("version").get<std::string>();
        manifest.abiVersion = json.at("abi").get<std::uint32_t>();
        manifest.capabilities = json.value("capabilities", std::vector<std::string>());
        for (const auto& type : json.value("item_types", nlohmann::json::array())) {
            manifest.itemTypes.push_back({type.at("name").get<std::string>(), type.value("doc", std::string())});
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("name, version, abi, capabilities or item_types: ") + e.what());
    }
    const nlohmann::json& operators = json.value("operators", nlohmann::json::array());
    if (!operators.is_array()) throw std::invalid_argument("operators: must be an array");
    for (std::size_t i = 0; i < operators.size(); ++i) {
        try {
            manifest.operators.push_back(descriptorFromJson(operators[i]));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("operators[" + std::to_string(i) + "]: " + e.what());
        }
    }
    return manifest;
}

PluginManifest readPluginManifest(const std::filesystem::path& library) {
    const std::filesystem::path path = manifestPathFor(library);
    std::ifstream in(path);
    if (!in) throw PluginError(library, "no manifest (expected " + path.string() + ")");
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw PluginError(library, "manifest " + path.filename().string() + " is not valid JSON: " + e.what());
    }
    try {
        return pluginManifestFromJson(json);
    } catch (const std::invalid_argument& e) {
        throw PluginError(library, "manifest " + path.filename().string() + ": " + e.what());
    }
}

nlohmann::ordered_json pluginManifestToJson(const PluginManifest& manifest) {
    nlohmann::ordered_json out;
    out["format"] = kPluginManifestFormat;
    out["name"] = manifest.name;
    out["version"] = manifest.version;
    out["abi"] = manifest.abiVersion;
    out["capabilities"] = manifest.capabilities;
    out["item_types"] = nlohmann::ordered_json::array();
    for (const auto& type : manifest.itemTypes) out["item_types"].push_back({{"name", type.name}, {"doc", type.doc}});
    out["operators"] = nlohmann::ordered_json::array();
    for (const auto& op : manifest.operators) out["operators"].push_back(descriptorToJson(op));
    return out;
}

}  // namespace isochron
