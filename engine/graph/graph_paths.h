// Path parameters in graph files: which values name a file next to the graph that wrote them.
#pragma once

#include <filesystem>
#include <string_view>

namespace isochron {

/// Whether a path parameter's `text` names a file relative to its graph file's folder: not empty,
/// not "-" (a standard stream) and not absolute.
inline bool isGraphRelativePath(std::string_view text) {
    return !text.empty() && text != "-" && std::filesystem::path(text).is_relative();
}

}  // namespace isochron
