// Helpers for the plugin tests: where the built plugins are, scratch folders, and copies of a
// plugin with its manifest (possibly edited) under another name.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <sys/types.h>

#include <nlohmann/json.hpp>

#include "engine/operators/registry.h"
#include "engine/plugins/plugin_host.h"
#include "engine/runtime/engine.h"

namespace isochron::test {

/// An example plugin built from plugins/examples (e.g. "biquad").
std::filesystem::path examplePlugin(const std::string& name);
/// A test fixture plugin built from tests/plugins/fixtures (e.g. "refused_abi").
std::filesystem::path fixturePlugin(const std::string& name);

/// A fresh empty folder in the temporary directory, removed with this object.
class ScratchFolder {
public:
    explicit ScratchFolder(const std::string& name);
    ~ScratchFolder();
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// Copy `plugin` and its manifest into `folder` as `name`.so, letting `editManifest` change the
/// manifest's JSON first. Returns the new plugin path.
std::filesystem::path copyPlugin(const std::filesystem::path& plugin, const std::filesystem::path& folder, const std::string& name,
                                 const std::function<void(nlohmann::json&)>& editManifest = {});

/// The message of the PluginError `load` throws, or "" if it loads.
std::string refusalOf(PluginHost& host, const std::filesystem::path& plugin);

/// The built-ins and the test operators (test.feed, test.collect, ...) plus every example plugin,
/// loaded once for the whole test program.
OperatorRegistry& registryWithExamplePlugins();

/// isochron-run with `arguments` in a child process (no per-user plugins), its standard output and
/// error into the file `outputPath`; the caller signals it and waits for it. Ends itself after 120 s.
pid_t startRunner(const std::vector<std::string>& arguments, const std::filesystem::path& outputPath);

/// Whether the main thread of process `pid` sleeps: the kernel wait channel of nanosleep (a plugin
/// fixture's hang, or the engine's under the df scheduler; the runner's other threads sleep too,
/// so only that one is looked at).
bool mainThreadSleeps(pid_t pid);

/// The processes whose parent is `pid` (e.g. a runner's sandbox processes).
std::vector<pid_t> childProcesses(pid_t pid);

/// Validate and run graph JSON against `registry` with the df scheduler.
RunOutcome runGraphWith(OperatorRegistry& registry, const std::string& graphJson);

}  // namespace isochron::test
