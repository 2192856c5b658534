#include "nodes/io/partial_file.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace isochron {
namespace {

/// The longest file name `folder` holds (NAME_MAX, 255 bytes on Linux file systems).
std::size_t longestName(const std::filesystem::path& folder) {
    const long longest = ::pathconf(folder.empty() ? "." : folder.c_str(), _PC_NAME_MAX);
    return longest > 0 ? static_cast<std::size_t>(longest) : 255;
}

/// 64-bit FNV-1a of `text` in 16 hex digits: stands for the part of a name cut off to make room.
std::string nameHash(const std::string& text) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
    return digits;
}

/// `name` + `suffix`, with `name` cut (at a UTF-8 character boundary) and followed by "~<hash of name>"
/// when the whole would be longer than `longest` bytes.
std::string fittedName(const std::string& name, const std::string& suffix, std::size_t longest) {
    if (name.size() + suffix.size() <= longest) return name + suffix;
    const std::string hash = "~" + nameHash(name);
    std::size_t keep = longest > suffix.size() + hash.size() ? longest - suffix.size() - hash.size() : 0;
    while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;  // not inside a character
    return name.substr(0, keep) + hash + suffix;
}

/// The partial name of `attempt` (1, 2, ...) for `target` in a folder whose names hold `longest` bytes.
std::string partialName(const std::filesystem::path& target, int attempt, std::size_t longest) {
    const std::string suffix = "." + std::to_string(::getpid()) + (attempt > 1 ? "-" + std::to_string(attempt) : "") + ".partial";
    return (target.parent_path() / fittedName(target.filename().string(), suffix, longest)).string();
}

}  // namespace

std::string partialFileName(const std::string& path) {
    const std::filesystem::path target = path;
    return partialName(target, 1, longestName(target.parent_path()));
}

std::string createPartialFile(const std::string& path) {
    namespace fs = std::filesystem;
    const fs::path target = path;
    const std::size_t longest = longestName(target.parent_path());
    for (int attempt = 1;; ++attempt) {
        const std::string partial = partialName(target, attempt, longest);
        const int descriptor = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (descriptor >= 0) {
            ::close(descriptor);
            return partial;
        }
        if (errno != EEXIST) throw std::runtime_error("cannot write '" + partial + "': " + std::strerror(errno));
    }
}

}  // namespace isochron
