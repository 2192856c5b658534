// A plugin binary, opened: its entry point called and its table checked against this host's ABI.
//
// The file is loaded through a private copy made next to it (removed again at once; the mapping
// stays), so the original can be rebuilt or overwritten while loaded and a reload always maps the
// new code, even where the old copy cannot be unmapped.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/operators/descriptor.h"
#include "engine/plugins/plugin_manifest.h"
#include "isochron/ext/check.h"
#include "isochron/ext/item_types.h"
#include "isochron/isochron.h"

namespace isochron {

/// Extensions this host knows; a binary offering one must list it in its manifest.
inline constexpr const char* kKnownExtensions[] = {ISOCHRON_EXT_CHECK, ISOCHRON_EXT_ITEM_TYPES};

/// Why a plugin built for ABI `pluginAbi` is refused, telling its author to rebuild. [any thread]
std::string abiRefusal(std::uint32_t pluginAbi);

/// An opened plugin library. Destroying it unmaps the plugin's code, so it must outlive every
/// descriptor, operator and custom payload that came from it. [setup thread]
class PluginLibrary {
public:
    /// Load `file` with every symbol resolved now, call its entry point and check the table (ABI
    /// version, names, operator types). Throws PluginError naming the file and the reason: a missing
    /// or unloadable file, an undefined symbol, no entry point, another ABI (a plugin of ABI 1 is
    /// told to rebuild). [setup thread] [may allocate]
    static std::unique_ptr<PluginLibrary> open(const std::filesystem::path& file);
    ~PluginLibrary();
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    /// The file it was opened from.
    const std::filesystem::path& file() const { return file_; }
    /// The plugin's table (valid while this object lives). [any thread]
    const isochron_plugin& table() const { return *table_; }
    /// The extension with versioned id `id`, or null when the plugin does not offer it. [setup thread]
    const void* extension(const char* id) const;
    /// The C declaration of operator type `typeName`, or null. [setup thread]
    const isochron_operator_type* operatorType(const std::string& typeName) const;
    /// Every operator's descriptor, with `origin` set to the file and a factory that hosts the
    /// operator in this process. Throws PluginError naming the operator and field at fault.
    /// [setup thread] [may allocate]
    std::vector<OperatorDescriptor> describeOperators() const;
    /// The custom item types of extension "isochron.item-types/1" (empty without it). [setup thread]
    std::vector<DeclaredItemType> itemTypes() const;
    /// The manifest the binary implies: what `isochron-plugin-manifest` writes at build time.
    /// [setup thread] [may allocate]
    PluginManifest impliedManifest() const;

private:
    PluginLibrary(std::filesystem::path file, void* handle, const isochron_plugin* table)
        : file_(std::move(file)), handle_(handle), table_(table) {}

    std::filesystem::path file_;
    void* handle_;
    const isochron_plugin* table_;
};

}  // namespace isochron
