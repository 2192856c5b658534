// PluginHost: loads plugins into an operator registry, next to the built-ins, and takes them out again.
//
// Loading is all or nothing. The manifest is read first (its ABI must be this host's), then the
// binary is opened and its table checked (plugin_library.h), then what the binary describes is
// compared with the manifest, and only when every check passes are the operator types registered,
// with the plugin file as their origin. Any refusal is a PluginError naming the file and the reason
// (wrong ABI, undefined symbols, no entry point, a type name that already exists, a manifest that
// does not match the binary), and leaves the registry as it was.
//
// Hosting, chosen per plugin when it is loaded: in-process (the default and the fastest: the
// plugin's hooks are called directly, see abi_operator.h) or sandboxed (each node of the plugin runs
// in a child process and segments cross in shared memory, so a crash, a hang or an abort() only
// disables that node; see sandbox/sandboxed_operator.h).
//
// Hot reload (for the editor): reload() opens the new binary next to the old one, checks it the same
// way, and only then swaps the types over, raising the registry's generation, and reports which
// types were added, removed, changed (ports or parameters differ) or kept. If the new version is
// refused, the old one stays loaded. Descriptors of the old generation are gone afterwards: stop and
// destroy every Engine using the plugin's operators first, then validate the graph again and build
// a new Engine (the editor keeps node ids, wiring and parameters; only the operators are new).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/operators/registry.h"
#include "engine/plugins/plugin_library.h"
#include "engine/plugins/plugin_manifest.h"

namespace isochron {

/// How a plugin's operators are hosted. [value type]
struct PluginHosting {
    /// Run each node of the plugin in a child process of its own.
    bool sandboxed = false;
    /// Sandboxed: how long one hook may take before its process is killed and its node disabled.
    std::chrono::milliseconds watchdog{10'000};
    /// Sandboxed: the same for create, activate and deactivate, which run while no source streams (a
    /// live graph's short watchdog is for the calls that hold the sources back).
    std::chrono::milliseconds setupWatchdog{10'000};
};

/// One plugin the host knows. [value type]
struct PluginInfo {
    std::filesystem::path file;  ///< as given to load() or declare(), made absolute
    std::string name;
    std::string version;
    bool codeLoaded = false;     ///< false: declared from its manifest only (its operators cannot run yet)
    PluginHosting hosting;
    std::vector<std::string> operatorTypes;
    std::vector<std::string> extensions;
    std::vector<DeclaredItemType> itemTypes;
};

/// What a reload changed; the editor rebuilds the nodes of every type listed. [value type]
struct PluginReloadReport {
    std::filesystem::path file;
    std::uint64_t generation = 0;        ///< the registry's generation after the reload
    std::vector<std::string> added;      ///< types the new version brings
    std::vector<std::string> removed;    ///< types it no longer has (their nodes cannot be built)
    std::vector<std::string> changed;    ///< same name, different ports/parameters/docs: re-check wiring
    std::vector<std::string> unchanged;  ///< same declaration, new code: rebuild, keep wiring and params
};

/// Plugins loaded into one registry. [setup thread; not while an Engine built from the registry runs]
class PluginHost {
public:
    explicit PluginHost(OperatorRegistry& registry);
    /// Unloads every plugin (see unload()).
    ~PluginHost();
    PluginHost(const PluginHost&) = delete;
    PluginHost& operator=(const PluginHost&) = delete;

    /// Load a plugin and register its operators, hosted as `hosting` says; see the file comment. A
    /// plugin declared from its manifest is upgraded to loaded code. Throws PluginError.
    /// [setup thread] [may allocate]
    const PluginInfo& load(const std::filesystem::path& file, const PluginHosting& hosting = {});
    /// Register a plugin's operators from its manifest alone, without loading code: the palette and
    /// graph validation work, building an Engine with them fails until load(). Throws PluginError.
    /// [setup thread] [may allocate]
    const PluginInfo& declare(const std::filesystem::path& file);
    /// Remove a plugin's types, then unmap its code. Returns whether the plugin was known.
    /// [setup thread; no Engine, operator or custom payload from this plugin may be alive]
    bool unload(const std::filesystem::path& file);
    /// Load the file's current version in place of the loaded (or declared) one, hosted as before;
    /// see the file comment. Throws PluginError and keeps the old version when the new one is refused.
    /// [setup thread; no Engine, operator or custom payload from this plugin may be alive]
    PluginReloadReport reload(const std::filesystem::path& file);
    /// How long one call into a sandboxed plugin may take (create, activate and deactivate:
    /// `setupWatchdog`), for every plugin loaded, from the next node created on: a run sets it once its graph is read (see sandbox_watchdog.h), after loading the
    /// plugins. [setup thread; an Engine already built keeps the watchdog its nodes were created with]
    void setSandboxWatchdog(std::chrono::milliseconds watchdog, std::chrono::milliseconds setupWatchdog);

    /// The plugin loaded or declared from `file`, or null. [setup thread]
    const PluginInfo* find(const std::filesystem::path& file) const;
    /// The opened binary of a loaded plugin (null if unknown or declared only), e.g. to query its
    /// extensions. [setup thread]
    const PluginLibrary* library(const std::filesystem::path& file) const;
    /// Every plugin, in load order. [setup thread]
    std::vector<const PluginInfo*> plugins() const;
    /// Custom item types of every plugin. [setup thread]
    std::vector<DeclaredItemType> itemTypes() const;
    /// The registry the plugins' operators go into.
    OperatorRegistry& registry() { return registry_; }

private:
    struct Loaded {
        PluginInfo info;
        std::unique_ptr<PluginLibrary> library;  // null while declared only
        std::uint64_t order = 0;
        // What the sandboxed factories read as they create a node (shared with them, so setSandboxWatchdog reaches them).
        struct WatchdogsMs {
            std::atomic<std::int64_t> streaming, setup;
        };
        std::shared_ptr<WatchdogsMs> watchdogsMs;
    };
    // Check `manifest` (and `library`, if any) against the registry and swap them in for `previous`
    // (null for a first load); returns the new entry. Throws PluginError, changing nothing.
    Loaded& install(const std::filesystem::path& file, PluginManifest manifest, std::unique_ptr<PluginLibrary> library,
                    const PluginHosting& hosting, Loaded* previous);
    static std::filesystem::path key(const std::filesystem::path& file);
    // The manifest of `file`, refused (naming the ABI) unless it is for this host's ABI.
    static PluginManifest readCurrentManifest(const std::filesystem::path& file);

    OperatorRegistry& registry_;
    std::map<std::filesystem::path, Loaded> plugins_;
    std::uint64_t nextOrder_ = 0;
};

}  // namespace isochron
