// A plugin binary, opened: its entry point called and its table checked against this host's ABI.
//
// The file is loaded through a private copy made next to it (removed again at once; the mapping
// stays), so the original can be rebuilt or overwritten while loaded and a reload always maps the
// new code, even where the old copy cannot be unmapped.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/plugins/plugin_manifest.h"
#include "isochron/entry.h"

namespace isochron {

/// An opened plugin library. Destroying it unmaps the plugin's code, so it must outlive every
/// descriptor, operator and custom payload that came from it. [setup thread]
class PluginLibrary {
public:
    /// Load `file` with every symbol resolved now, call its entry point and check the table (ABI
    /// version, C++ library, names). Throws PluginError naming the file and the reason: a missing or
    /// unloadable file, an undefined symbol, no entry point, another ABI. [setup thread] [may allocate]
    static std::unique_ptr<PluginLibrary> open(const std::filesystem::path& file);
    ~PluginLibrary();
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    /// The file it was opened from.
    const std::filesystem::path& file() const { return file_; }
    /// The plugin's table (valid while this object lives). [any thread]
    const PluginTable& table() const { return *table_; }
    /// The capability with versioned id `id`, or null when the plugin does not offer it. [setup thread]
    const void* capability(const char* id) const;
    /// Every operator's descriptor, with `origin` set to the file. Throws PluginError if a
    /// describe function throws. [setup thread] [may allocate]
    std::vector<OperatorDescriptor> describeOperators() const;
    /// The custom item types of capability "isochron.item-types/1" (empty without it). [setup thread]
    std::vector<DeclaredItemType> itemTypes() const;

private:
    PluginLibrary(std::filesystem::path file, void* handle, const PluginTable* table)
        : file_(std::move(file)), handle_(handle), table_(table) {}

    std::filesystem::path file_;
    void* handle_;
    const PluginTable* table_;
};

}  // namespace isochron
