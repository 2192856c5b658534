// The plugin ABI: the one symbol a plugin library exports and the table it returns.
//
// A plugin is a shared library exporting `isochron_plugin_entry`, a C function that returns a
// PluginTable: the ABI version it was built for, its operators and its optional capabilities.
// Operators cross the boundary as the same C++ types the built-ins use (OperatorDescriptor,
// Operator, Item, SigSeg), so host and plugin must agree on those types' layout. That agreement is
// what ISOCHRON_PLUGIN_ABI_VERSION names: it changes whenever a public type changes layout or
// meaning, and the host refuses a table carrying another number. `abiVersion` is the first member
// and will stay first, so the host can read it before trusting anything else in the table.
// The C++ standard library must match too (std::string and std::function cross the boundary):
// `toolchain` says which one the plugin was built with, and the host refuses a different one.
//
// Lifecycle of a plugin library: the host opens it (dlopen, all symbols resolved at once),
// calls isochron_plugin_entry() once, checks the table, calls every DescribeOperator once and
// registers the descriptors under the file's name. It closes the library only after removing
// those descriptors again (unload or reload), when no engine runs its operators any more.
#pragma once

#include <cstdint>

#include "engine/operators/descriptor.h"

/// The plugin ABI this SDK speaks; a plugin built against another number is refused.
#define ISOCHRON_PLUGIN_ABI_VERSION 1u

/// The C++ standard library and its ABI flavour, compared as text by the host.
#if defined(_LIBCPP_VERSION)
#define ISOCHRON_PLUGIN_TOOLCHAIN "libc++"
#elif defined(__GLIBCXX__) && _GLIBCXX_USE_CXX11_ABI
#define ISOCHRON_PLUGIN_TOOLCHAIN "libstdc++/cxx11-abi"
#elif defined(__GLIBCXX__)
#define ISOCHRON_PLUGIN_TOOLCHAIN "libstdc++/old-abi"
#else
#define ISOCHRON_PLUGIN_TOOLCHAIN "unknown"
#endif

/// The name of the exported entry point (what the host looks up with dlsym).
#define ISOCHRON_PLUGIN_ENTRY_NAME "isochron_plugin_entry"

namespace isochron {

/// Builds the descriptor of one operator type: name, category, docs, ports, parameters, factory.
/// Called once per load by the host. [setup thread] [may allocate]
using DescribeOperator = OperatorDescriptor (*)();

/// Returns the capability named by the versioned id (e.g. "isochron.check/1"), or null when the
/// plugin does not offer it. The pointer's type is the struct that capability's header defines.
/// [setup thread] [no allocation]
using FindCapability = const void* (*)(const char* id);

/// What a plugin offers; a constant with static storage in the plugin. [immutable]
struct PluginTable {
    std::uint32_t abiVersion;        ///< ISOCHRON_PLUGIN_ABI_VERSION when the plugin was built; stays first
    const char* toolchain;           ///< ISOCHRON_PLUGIN_TOOLCHAIN when the plugin was built
    const char* name;                ///< the plugin's name, e.g. "biquad" (matches its manifest)
    const char* version;             ///< the plugin's own version, e.g. "1.2.0" (matches its manifest)
    std::uint32_t operatorCount;     ///< entries in `operators`
    const DescribeOperator* operators;  ///< one function per operator type
    FindCapability capability;       ///< optional capabilities; null when there are none
};

}  // namespace isochron

/// The entry point's type: returns the plugin's table (never null). [setup thread] [no allocation]
extern "C" {
typedef const isochron::PluginTable* (*IsochronPluginEntry)();
}

/// Defines the entry point returning `table` (a PluginTable constant). Use once per plugin.
#define ISOCHRON_PLUGIN_ENTRY(table)                                                              \
    extern "C" __attribute__((visibility("default"))) const ::isochron::PluginTable* isochron_plugin_entry() { \
        return &(table);                                                                          \
    }
