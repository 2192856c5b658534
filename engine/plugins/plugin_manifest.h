// The JSON manifest beside every plugin binary ("format": "isochron-plugin/1").
//
// It declares what the binary registers: the plugin's name and version, the ABI it targets, the
// build it was generated from (the binary's build id), its extensions, its custom item types and
// every operator (ports, parameters with units and ranges). The editor's palette and graph
// validation read it without loading code; the loader compares it with the binary and refuses a
// plugin whose manifest does not match. isochron_add_plugin() generates it from the binary at
// build time (isochron-plugin-manifest), so nobody writes one by hand.
// For a library "dir/name.so" the manifest is "dir/name.manifest.json".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/operators/descriptor.h"

namespace isochron {

/// Version tag every plugin manifest carries in its "format" field.
inline constexpr const char* kPluginManifestFormat = "isochron-plugin/1";

/// A custom item type a plugin declares. [value type]
struct DeclaredItemType {
    std::string name;  ///< as in "custom<name>"
    std::string doc;
    bool operator==(const DeclaredItemType&) const = default;
};

/// A parsed manifest; its operators have no factory. [value type]
struct PluginManifest {
    std::string name;
    std::string version;
    std::uint32_t abiVersion = 0;
    std::string buildId;                     ///< the binary's build id it was generated from ("" = unknown)
    std::vector<std::string> extensions;     ///< versioned ids, e.g. "isochron.check/1"
    std::vector<DeclaredItemType> itemTypes;
    std::vector<OperatorDescriptor> operators;
};

/// Where the manifest of `library` lives: same folder, ".so" replaced by ".manifest.json". [any thread]
std::filesystem::path manifestPathFor(const std::filesystem::path& library);

/// Read and parse a manifest file; throws PluginError naming `library` and the field at fault.
/// [setup thread] [may allocate]
PluginManifest readPluginManifest(const std::filesystem::path& library);

/// Parse manifest JSON; throws std::invalid_argument naming the field at fault. [setup thread]
PluginManifest pluginManifestFromJson(const nlohmann::json& json);

/// The manifest as JSON, in the layout readPluginManifest expects. [setup thread]
nlohmann::ordered_json pluginManifestToJson(const PluginManifest& manifest);

/// Write the manifest of `library` (to manifestPathFor(library)), replacing the file in one rename
/// so a reader never sees half of it. Throws PluginError. [setup thread] [may allocate]
void writePluginManifest(const std::filesystem::path& library, const PluginManifest& manifest);

}  // namespace isochron
