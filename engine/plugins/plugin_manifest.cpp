#include "engine/plugins/plugin_manifest.h"

#include <fstream>
#include <stdexcept>

#include <unistd.h>

#include "engine/files/file_kind.h"
#include "engine/plugins/descriptor_json.h"
#include "engine/plugins/json_fields.h"
#include "engine/plugins/plugin_error.h"

namespace isochron {

std::filesystem::path manifestPathFor(const std::filesystem::path& library) {
    std::filesystem::path manifest = library;
    manifest.replace_extension(".manifest.json");
    return manifest;
}

PluginManifest pluginManifestFromJson(const nlohmann::json& json) {
    if (!json.is_object()) throw std::invalid_argument("the manifest must be a JSON object");
    const std::string format = jsonField<std::string>(json, "format", "manifest", std::string());
    if (format != kPluginManifestFormat) {
        throw std::invalid_argument(std::string("format: expected \"") + kPluginManifestFormat + "\", found \"" + format + "\"");
    }
    PluginManifest manifest;
    manifest.name = jsonField<std::string>(json, "name", "manifest");
    manifest.version = jsonField<std::string>(json, "version", "manifest");
    manifest.abiVersion = jsonField<std::uint32_t>(json, "abi", "manifest");
    manifest.buildId = jsonField<std::string>(json, "build_id", "manifest", std::string());
    manifest.extensions = jsonField<std::vector<std::string>>(json, "extensions", "manifest", std::vector<std::string>());
    const nlohmann::json itemTypes = jsonField<nlohmann::json>(json, "item_types", "manifest", nlohmann::json::array());
    if (!itemTypes.is_array()) throw std::invalid_argument("manifest.item_types: must be an array");
    for (std::size_t i = 0; i < itemTypes.size(); ++i) {
        const std::string where = "manifest.item_types[" + std::to_string(i) + "]";
        if (!itemTypes[i].is_object()) throw std::invalid_argument(where + ": must be an object");
        manifest.itemTypes.push_back({jsonField<std::string>(itemTypes[i], "name", where), jsonField<std::string>(itemTypes[i], "doc", where, std::string())});
    }
    const nlohmann::json operators = jsonField<nlohmann::json>(json, "operators", "manifest", nlohmann::json::array());
    if (!operators.is_array()) throw std::invalid_argument("manifest.operators: must be an array");
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
    // Checked before opening: opening a named pipe waits for a writer (every run hung), and reading
    // a folder or a device threw past every caller or never ended.
    if (const std::string kind = nonRegularFileKind(path); !kind.empty()) {
        throw PluginError(library, "its manifest " + path.string() + " is " + kind + ", not a file");
    }
    std::ifstream in(path);
    if (!in) throw PluginError(library, "no manifest (expected " + path.string() + "; isochron_add_plugin() generates it when the plugin builds)");
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw PluginError(library, "manifest " + path.filename().string() + " is not valid JSON: " + e.what());
    } catch (const std::exception& e) {
        throw PluginError(library, "cannot read its manifest " + path.string() + ": " + e.what());
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
    if (!manifest.buildId.empty()) out["build_id"] = manifest.buildId;
    out["extensions"] = manifest.extensions;
    out["item_types"] = nlohmann::ordered_json::array();
    for (const auto& type : manifest.itemTypes) out["item_types"].push_back({{"name", type.name}, {"doc", type.doc}});
    out["operators"] = nlohmann::ordered_json::array();
    for (const auto& op : manifest.operators) out["operators"].push_back(descriptorToJson(op));
    return out;
}

void writePluginManifest(const std::filesystem::path& library, const PluginManifest& manifest) {
    const std::filesystem::path path = manifestPathFor(library);
    std::filesystem::path temporary = path;
    temporary += ".part-" + std::to_string(getpid());
    {
        std::ofstream out(temporary);
        out << pluginManifestToJson(manifest).dump(2) << "\n";
        if (!out.flush()) throw PluginError(library, "cannot write " + temporary.string());
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) throw PluginError(library, "cannot write " + path.string() + ": " + error.message());
}

}  // namespace isochron
