#include "engine/files/file_kind.h"

#include <cerrno>
#include <system_error>

namespace isochron {

std::string nonRegularFileKind(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error.value() == ELOOP) return "a loop of symlinks";  // names no file, but not "no such file" either
    if (!fs::exists(status) || fs::is_regular_file(status)) return "";
    if (fs::is_directory(status)) return "a folder";
    if (fs::is_fifo(status)) return "a named pipe (FIFO)";
    if (fs::is_character_file(status) || fs::is_block_file(status)) return "a device";
    if (fs::is_socket(status)) return "a socket";
    return "not a regular file";
}

}  // namespace isochron
