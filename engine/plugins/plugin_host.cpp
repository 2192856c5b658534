#include "engine/plugins/plugin_host.h"

#include <algorithm>
#include <atomic>
#include <set>

#include "engine/files/file_kind.h"
#include "engine/operators/operator.h"
#include "engine/plugins/descriptor_json.h"
#include "engine/plugins/plugin_build_id.h"
#include "engine/plugins/plugin_error.h"
#include "engine/plugins/sandbox/sandboxed_operator.h"

namespace isochron {
namespace {

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string text;
    for (const auto& part : parts) text += (text.empty() ? "" : separator) + part;
    return text;
}

std::vector<std::string> itemTypeNames(std::vector<DeclaredItemType> types) {
    std::vector<std::string> names;
    for (const auto& type : types) names.push_back(type.name + " (" + type.doc + ")");
    std::sort(names.begin(), names.end());
    return names;
}

// Every way the binary differs from its manifest.
std::vector<std::string> manifestMismatches(const PluginManifest& manifest, const PluginLibrary& library,
                                            const std::vector<OperatorDescriptor>& described) {
    std::vector<std::string> problems;
    const isochron_plugin& table = library.table();
    if (manifest.name != table.name || manifest.version != table.version) {
        problems.push_back("the manifest names " + manifest.name + " " + manifest.version + ", the binary " + table.name + " " +
                           table.version);
    }
    for (const auto& declared : manifest.operators) {
        auto actual = std::find_if(described.begin(), described.end(), [&](auto& d) { return d.typeName == declared.typeName; });
        if (actual == described.end()) {
            problems.push_back("operator '" + declared.typeName + "' is in the manifest but not in the binary");
            continue;
        }
        for (const auto& difference : descriptorDifferences(declared, *actual)) {
            problems.push_back("operator '" + declared.typeName + "', " + difference);
        }
    }
    for (const auto& actual : described) {
        bool declared = std::any_of(manifest.operators.begin(), manifest.operators.end(),
                                    [&](auto& d) { return d.typeName == actual.typeName; });
        if (!declared) problems.push_back("operator '" + actual.typeName + "' is in the binary but not in the manifest");
    }
    for (const auto& id : manifest.extensions) {
        if (!library.extension(id.c_str())) problems.push_back("the manifest lists extension " + id + ", the binary does not offer it");
    }
    for (const char* id : kKnownExtensions) {
        const bool listed = std::find(manifest.extensions.begin(), manifest.extensions.end(), id) != manifest.extensions.end();
        if (library.extension(id) && !listed) problems.push_back(std::string("the binary offers extension ") + id + ", the manifest does not list it");
    }
    if (itemTypeNames(manifest.itemTypes) != itemTypeNames(library.itemTypes())) {
        problems.push_back("item types: the manifest declares [" + joined(itemTypeNames(manifest.itemTypes), ", ") +
                           "], the binary [" + joined(itemTypeNames(library.itemTypes()), ", ") + "]");
    }
    return problems;
}

// Descriptors from a manifest alone: complete for the palette and validation, but not runnable.
std::vector<OperatorDescriptor> declaredOnly(const PluginManifest& manifest, const std::filesystem::path& file) {
    std::vector<OperatorDescriptor> descriptors = manifest.operators;
    for (auto& d : descriptors) {
        d.origin = file.string();
        d.create = [type = d.typeName, file]() -> std::unique_ptr<Operator> {
            throw OperatorError("operator type '" + type + "' is declared by the manifest of " + file.string() +
                                " but its code is not loaded");
        };
    }
    return descriptors;
}

}  // namespace

PluginHost::PluginHost(OperatorRegistry& registry) : registry_(registry) {}

PluginHost::~PluginHost() {
    while (!plugins_.empty()) unload(plugins_.begin()->first);
}

PluginManifest PluginHost::readCurrentManifest(const std::filesystem::path& file) {
    PluginManifest manifest = readPluginManifest(file);
    // Refused before any of its code runs: its static initializers may assume another ABI.
    if (manifest.abiVersion != ISOCHRON_ABI_VERSION) throw PluginError(file, "its manifest says it was " + abiRefusal(manifest.abiVersion));
    return manifest;
}

namespace {

// Refuses a path that names no plugin binary, saying what it names, by the name it was given: the
// key (every symlink followed) made a symlink to /dev/zero "plugin /dev/zero: no manifest".
void refuseNonPluginFile(const std::filesystem::path& file) {
    namespace fs = std::filesystem;
    std::error_code error;
    const bool symlink = fs::is_symlink(fs::symlink_status(file, error));
    std::string target;
    if (symlink) {
        const fs::path canonical = fs::canonical(file, error);  // fails for a dangling link: name its first hop
        target = "a symlink to " + (error ? fs::read_symlink(file, error) : canonical).string() + ", ";
    }
    if (const std::string kind = nonRegularFileKind(file); !kind.empty()) {
        throw PluginError(file, "is " + (kind == "a loop of symlinks" ? kind : target + kind) + ", not a plugin binary");
    }
    if (!fs::exists(file, error)) throw PluginError(file, symlink ? "is " + target + "which does not exist" : "no such file");
}

}  // namespace

std::filesystem::path PluginHost::key(const std::filesystem::path& file) {
    std::error_code error;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(file, error);
    return error ? std::filesystem::absolute(file).lexically_normal() : canonical;
}

const PluginInfo& PluginHost::load(const std::filesystem::path& file, const PluginHosting& hosting) {
    refuseNonPluginFile(file);
    const std::filesystem::path path = key(file);
    auto existing = plugins_.find(path);
    if (existing != plugins_.end() && existing->second.library) {
        throw PluginError(path, "is already loaded (reload it to pick up a new version)");
    }
    PluginManifest manifest = readCurrentManifest(path);
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(path);
    return install(path, std::move(manifest), std::move(library), hosting, existing == plugins_.end() ? nullptr : &existing->second).info;
}

const PluginInfo& PluginHost::declare(const std::filesystem::path& file) {
    const std::filesystem::path path = key(file);
    if (plugins_.count(path)) throw PluginError(path, "is already known to this host");
    return install(path, readCurrentManifest(path), nullptr, {}, nullptr).info;
}

PluginHost::Loaded& PluginHost::install(const std::filesystem::path& file, PluginManifest manifest,
                                        std::unique_ptr<PluginLibrary> library, const PluginHosting& hosting, Loaded* previous) {
    std::vector<OperatorDescriptor> descriptors;
    std::vector<DeclaredItemType> itemTypes = manifest.itemTypes;
    auto watchdogsMs = std::make_shared<Loaded::WatchdogsMs>();
    watchdogsMs->streaming = hosting.watchdog.count();
    watchdogsMs->setup = hosting.setupWatchdog.count();
    if (library) {
        descriptors = library->describeOperators();
        std::vector<std::string> problems = manifestMismatches(manifest, *library, descriptors);
        if (!problems.empty()) {
            std::string reason = "its manifest does not match the binary: " + joined(problems, "; ");
            const std::string binaryBuild = pluginBuildId(file);
            if (!manifest.buildId.empty() && manifest.buildId != binaryBuild) {
                reason += " (the manifest was generated from another build of the binary: build the plugin again to regenerate it)";
            }
            throw PluginError(file, reason);
        }
        if (hosting.sandboxed) {
            // The watchdog is read as each node is created, not now: a run picks it after reading its
            // graph (setSandboxWatchdog), and the plugins were loaded before.
            for (OperatorDescriptor& d : descriptors) {
                d.create = [file, declared = d, watchdogsMs]() {
                    return sandboxedFactory(file, declared, std::chrono::milliseconds(watchdogsMs->streaming.load()),
                                            std::chrono::milliseconds(watchdogsMs->setup.load()))();
                };
            }
        }
    } else {
        descriptors = declaredOnly(manifest, file);
    }
    const std::set<std::string> replaced = previous ? std::set<std::string>(previous->info.operatorTypes.begin(),
                                                                            previous->info.operatorTypes.end())
                                                    : std::set<std::string>();

    // Each descriptor must be well formed and its name new: tried on a scratch registry first.
    {
        OperatorRegistry scratch;
        for (const auto& d : descriptors) {
            try {
                scratch.add(d);
            } catch (const std::invalid_argument& e) {
                throw PluginError(file, e.what());
            }
            const OperatorDescriptor* existing = registry_.find(d.typeName);
            if (existing && !replaced.count(d.typeName)) {
                throw PluginError(file, "defines operator type '" + d.typeName + "', which already exists (from " + existing->origin + ")");
            }
        }
    }
    std::set<std::string> knownItemTypes;
    for (const auto& [path, other] : plugins_) {
        if (&other == previous) continue;
        for (const auto& type : other.info.itemTypes) {
            knownItemTypes.insert(type.name);
            for (const auto& mine : itemTypes) {
                if (mine.name == type.name) throw PluginError(file, "declares item type '" + type.name + "', which " + path.string() + " already declares");
            }
        }
    }
    for (const auto& type : itemTypes) knownItemTypes.insert(type.name);
    for (const auto& d : descriptors) {
        for (const auto* group : {&d.inputs, &d.outputs}) {
            for (const PortSpec& port : *group) {
                if (port.type.kind != ItemKind::Custom || !port.type.customType || knownItemTypes.count(port.type.customType)) continue;
                throw PluginError(file, "operator '" + d.typeName + "', port '" + port.name + "' carries " + port.type.toString() +
                                            ", an item type no loaded plugin declares (extension " + ISOCHRON_EXT_ITEM_TYPES + ")");
            }
        }
    }

    // Every check passed: swap the old types (their code still mapped) for the new ones.
    Loaded replacement;
    replacement.info.file = file;
    replacement.info.name = manifest.name;
    replacement.info.version = manifest.version;
    replacement.info.codeLoaded = library != nullptr;
    replacement.info.hosting = hosting;
    replacement.info.extensions = manifest.extensions;
    replacement.info.itemTypes = std::move(itemTypes);
    for (const auto& d : descriptors) replacement.info.operatorTypes.push_back(d.typeName);
    replacement.order = previous ? previous->order : nextOrder_++;
    replacement.watchdogsMs = std::move(watchdogsMs);
    for (const auto& type : replaced) registry_.remove(type);
    for (auto& d : descriptors) registry_.add(std::move(d));
    replacement.library = std::move(library);
    Loaded& slot = plugins_[file];
    slot = std::move(replacement);  // closes the previous library, now that nothing refers to it
    return slot;
}

void PluginHost::setSandboxWatchdog(std::chrono::milliseconds watchdog, std::chrono::milliseconds setupWatchdog) {
    for (auto& [path, loaded] : plugins_) {
        loaded.info.hosting.watchdog = watchdog;
        loaded.info.hosting.setupWatchdog = setupWatchdog;
        loaded.watchdogsMs->streaming.store(watchdog.count());
        loaded.watchdogsMs->setup.store(setupWatchdog.count());
    }
}

bool PluginHost::unload(const std::filesystem::path& file) {
    auto it = plugins_.find(key(file));
    if (it == plugins_.end()) return false;
    for (const auto& type : it->second.info.operatorTypes) registry_.remove(type);
    plugins_.erase(it);
    return true;
}

PluginReloadReport PluginHost::reload(const std::filesystem::path& file) {
    const std::filesystem::path path = key(file);
    auto existing = plugins_.find(path);
    if (existing == plugins_.end()) throw PluginError(path, "is not loaded, so it cannot be reloaded");
    std::map<std::string, nlohmann::ordered_json> before;
    for (const auto& type : existing->second.info.operatorTypes) before[type] = descriptorToJson(*registry_.find(type));

    PluginManifest manifest = readCurrentManifest(path);
    std::unique_ptr<PluginLibrary> library = PluginLibrary::open(path);
    const Loaded& loaded = install(path, std::move(manifest), std::move(library), existing->second.info.hosting, &existing->second);

    PluginReloadReport report;
    report.file = path;
    report.generation = registry_.generation();
    for (const auto& type : loaded.info.operatorTypes) {
        auto old = before.find(type);
        if (old == before.end()) report.added.push_back(type);
        else if (old->second == descriptorToJson(*registry_.find(type))) report.unchanged.push_back(type);
        else report.changed.push_back(type);
    }
    for (const auto& [type, json] : before) {
        if (!std::count(loaded.info.operatorTypes.begin(), loaded.info.operatorTypes.end(), type)) report.removed.push_back(type);
    }
    return report;
}

const PluginInfo* PluginHost::find(const std::filesystem::path& file) const {
    auto it = plugins_.find(key(file));
    return it == plugins_.end() ? nullptr : &it->second.info;
}

const PluginLibrary* PluginHost::library(const std::filesystem::path& file) const {
    auto it = plugins_.find(key(file));
    return it == plugins_.end() ? nullptr : it->second.library.get();
}

std::vector<const PluginInfo*> PluginHost::plugins() const {
    std::vector<const Loaded*> entries;
    for (const auto& [path, loaded] : plugins_) entries.push_back(&loaded);
    std::sort(entries.begin(), entries.end(), [](auto* a, auto* b) { return a->order < b->order; });
    std::vector<const PluginInfo*> list;
    for (const Loaded* entry : entries) list.push_back(&entry->info);
    return list;
}

std::vector<DeclaredItemType> PluginHost::itemTypes() const {
    std::vector<DeclaredItemType> types;
    for (const PluginInfo* info : plugins()) types.insert(types.end(), info->itemTypes.begin(), info->itemTypes.end());
    return types;
}

}  // namespace isochron
