#include "nodes/io/output_path.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace isochron {
namespace {

/// Links followed before a chain is taken for a loop (Linux's own limit, MAXSYMLINKS).
constexpr int kMaxSymlinks = 40;

}  // namespace

void refuseUnwritableOutput(const std::string& path, const std::string& named) {
    namespace fs = std::filesystem;
    if (path == "-") return;
    std::string target;
    try {
        target = followSymlinks(path);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(named + ": " + e.what());
    }
    std::error_code error;
    const fs::file_status status = fs::status(target, error);
    const char* what = fs::is_fifo(status) ? "a named pipe (FIFO)" : fs::is_socket(status) ? "a socket" : nullptr;
    if (what) {
        throw std::runtime_error(named + ": '" + path + "' is " + what +
                                 ": a sink does not write to one (opening a pipe waits, without end and unstoppable, for a reader); give a "
                                 "regular file or a device, or '-' for standard output");
    }
    if (fs::is_directory(status)) throw std::runtime_error(named + ": '" + path + "' is a folder: give a file in it");
    if (!fs::exists(status) && fs::exists(fs::status(path, error))) {
        // A /proc link (/dev/stdout) reaching a pipe or a terminal that has no name: written in place.
        if (::access(path.c_str(), W_OK) != 0) throw std::runtime_error(named + ": cannot write '" + path + "': " + std::strerror(errno));
        return;
    }
    if (fs::exists(status) && !fs::is_regular_file(status)) {
        // A device is written in place.
        if (::access(target.c_str(), W_OK) != 0) throw std::runtime_error(named + ": cannot write '" + path + "': " + std::strerror(errno));
        return;
    }
    // A write-protected file is not replaced behind its owner's back (a renamed file ignored the
    // protection), as every other writer of this program refuses it.
    if (fs::exists(status) && ::access(target.c_str(), W_OK) != 0) {
        const int reason = errno;
        throw std::runtime_error(named + ": cannot write '" + path + "': " + std::strerror(reason) +
                                 (reason == EACCES ? " (the file is write-protected: give another file, or make it writable)" : ""));
    }
    fs::path folder = fs::path(target).parent_path();
    if (folder.empty()) folder = ".";
    if (!fs::is_directory(folder, error)) {
        const std::string why = fs::exists(folder, error) ? "is not a folder" : "does not exist";
        throw std::runtime_error(named + ": cannot write '" + path + "': the folder '" + folder.string() + "' " + why);
    }
    // The file is created (or its replacement grows) in the folder.
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        const int reason = errno;
        const std::string why = reason == EROFS ? "is on a read-only file system"
                              : reason == EACCES ? "does not let this user create files in it (Permission denied)"
                                                 : std::string("cannot take a file (") + std::strerror(reason) + ")";
        throw std::runtime_error(named + ": cannot write '" + path + "': the folder '" + folder.string() + "' " + why);
    }
}

std::string followSymlinks(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path current = path;
    for (int hops = 0; hops <= kMaxSymlinks; ++hops) {
        std::error_code error;
        if (!fs::is_symlink(fs::symlink_status(current, error))) return current.string();
        const fs::path target = fs::read_symlink(current, error);
        if (error) throw std::runtime_error("cannot follow the symlink '" + current.string() + "': " + error.message());
        current = target.is_absolute() ? target : current.parent_path() / target;
    }
    throw std::runtime_error("cannot follow the symlink '" + path + "': more than " + std::to_string(kMaxSymlinks) +
                             " links in a row (a loop of links?)");
}

bool sameFile(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code error;
    if (fs::equivalent(a, b, error)) return true;
    auto normalForm = [](const std::string& path) -> std::optional<fs::path> {
        std::string target = path;
        try {
            target = followSymlinks(path);
        } catch (const std::runtime_error&) {
            // A loop of links names no file; compare the path as given.
        }
        // Absolute first: weakly_canonical leaves a relative path whose first part does not exist as
        // it is, so "x.json" and "./x.json" (a file not yet written) compared unequal.
        std::error_code absoluteError, normalError;
        const fs::path absolute = fs::absolute(target, absoluteError);
        if (absoluteError) return std::nullopt;
        fs::path normal = fs::weakly_canonical(absolute, normalError);
        if (normalError) return std::nullopt;
        return normal;
    };
    const std::optional<fs::path> normalA = normalForm(a), normalB = normalForm(b);
    return normalA && normalB && *normalA == *normalB;
}

std::optional<std::string> archiveFileNamed(const std::string& path, const std::string& archive) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        if (sameFile(path, archive + suffix)) return suffix;
    }
    return std::nullopt;
}

std::optional<std::string> archiveFileOpenAs(int fd, const std::string& archive) {
    struct stat open {};
    if (fstat(fd, &open) != 0 || !S_ISREG(open.st_mode)) return std::nullopt;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        struct stat file {};
        if (stat((archive + suffix).c_str(), &file) == 0 && file.st_dev == open.st_dev && file.st_ino == open.st_ino) return suffix;
    }
    return std::nullopt;
}

}  // namespace isochron
