// Whether a plugin's new build would be refused, found out while its old build still runs: the
// editor asks before it stops the runs for a reload, so a refused build leaves them as they were.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace isochron {
class PluginHost;
}

namespace isochron::ui {

/// Why `host.reload(file)` would refuse the file's current build (its PluginError's text), or
/// nothing when it would load. Tried on a scratch host of the built-ins and the host's other plugins
/// (declared from their manifests), with `file` hosted as now: `host` is not touched, so this may
/// run while engines built from it run. [ui thread]
std::optional<std::string> reloadRefusal(const PluginHost& host, const std::filesystem::path& file);

}  // namespace isochron::ui
