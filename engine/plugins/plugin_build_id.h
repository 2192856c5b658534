// The build id of a plugin binary: the GNU build-id note the linker writes (isochron_add_plugin
// asks for one). It names one build exactly and survives stripping and installing, so a manifest
// that records it says which build it was generated from, without loading any code.
#pragma once

#include <filesystem>
#include <string>

namespace isochron {

/// The build id of the ELF file `binary` in hex, or "" when it has none or cannot be read.
/// [any thread] [may allocate]
std::string pluginBuildId(const std::filesystem::path& binary);

}  // namespace isochron
