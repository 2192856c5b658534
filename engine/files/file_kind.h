// What kind of file a path names, in words for a message: a tool that expects a regular file (an
// archive, a manifest, a geometry, an event file) says "is a device" or "is a folder" instead of
// "no such file" when the path exists but is something else, and refuses it before reading.
#pragma once

#include <filesystem>
#include <string>

namespace isochron {

/// "a folder", "a named pipe (FIFO)", "a device", "a socket" or "not a regular file" for an existing
/// file that is not a regular file, "a loop of symlinks" for a path whose symlinks never end; "" for a
/// regular file or a path naming nothing. Follows symlinks.
/// [any thread]
std::string nonRegularFileKind(const std::filesystem::path& path);

}  // namespace isochron
