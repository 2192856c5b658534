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

/// Whether the manifest beside `binary` was generated from this very build of it (their build ids
/// agree), or records no build id to compare. False while a build has written the binary but not
/// yet its manifest, or when either cannot be read. [any thread] [may allocate]
bool manifestDescribesBuild(const std::filesystem::path& binary);

}  // namespace isochron
