#include "engine/archive/archive_file_access.h"

#include <pwd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <optional>

#include "engine/archive/archive_store.h"

namespace isochron {
namespace {

/// The folder `path` is in ("." for a bare file name).
std::string folderOf(const std::string& path) {
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    return folder.empty() ? std::string(".") : folder.string();
}

/// Whether the filesystem holding `path` (a file or folder that exists) is mounted read-only.
bool onReadOnlyFilesystem(const std::string& path) {
    struct statvfs info {};
    return statvfs(path.c_str(), &info) == 0 && (info.f_flag & ST_RDONLY) != 0;
}

/// The owner of `path`, or nothing when it does not exist.
std::optional<uid_t> ownerOf(const std::string& path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return std::nullopt;
    return info.st_uid;
}

/// "user NAME (uid N)", or "uid N" for a uid without a name.
std::string userText(uid_t uid) {
    const passwd* entry = getpwuid(uid);
    return entry ? "user " + std::string(entry->pw_name) + " (uid " + std::to_string(uid) + ")" : "uid " + std::to_string(uid);
}

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

/// Percent-escapes `path` for a file: URI (everything but letters, digits and "/._~-").
std::string uriPath(const std::string& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string escaped;
    for (const unsigned char c : std::filesystem::absolute(path).string()) {
        const bool plain = std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '~' || c == '-';
        if (plain) escaped += static_cast<char>(c);
        else escaped += {'%', hex[c >> 4], hex[c & 15]};
    }
    return escaped;
}

}  // namespace

std::string readOnlyArchiveUri(const std::string& path) {
    const std::string uri = "file:" + uriPath(path) + "?mode=ro";
    const bool logExists = exists(path + "-wal"), indexExists = exists(path + "-shm");
    if (logExists && indexExists) return uri;  // SQLite uses them, read-only where this user may not write them
    // SQLite would create what is missing, owned by this process's user (root: by the file's owner).
    const std::string folder = folderOf(path);
    const std::optional<uid_t> owner = ownerOf(path);
    const bool createdFilesFitOwner = geteuid() == 0 || (owner && *owner == geteuid());
    if (createdFilesFitOwner && access(folder.c_str(), W_OK) == 0 && !onReadOnlyFilesystem(folder)) return uri;
    // No X-wal: no writer has the file open and every commit is in the file itself.
    if (!logExists) return uri + "&immutable=1";
    throw ArchiveError("archive '" + path + "' has a write-ahead log '" + path + "-wal' (left by a recorder that did not close it) without '" + path +
                       "-shm', which this user may not create there: open the archive once as its owner" +
                       (owner ? " (" + userText(*owner) + ")" : std::string()) + " to fold the log in, or copy the archive and its -wal file to a folder of your own");
}

std::string unwritableArchiveProblem(const std::string& path) {
    const std::string folder = folderOf(path);
    const bool archiveExists = exists(path);
    if (!archiveExists && !exists(folder)) return {};  // the open says that the folder is missing
    if (onReadOnlyFilesystem(archiveExists ? path : folder)) {
        return "archive '" + path + "' is on a read-only filesystem: record into a file on a writable one" +
               (archiveExists ? std::string(" (copy this archive there to add to it; reading it works where it is)") : std::string());
    }
    const std::string self = userText(geteuid());
    if (archiveExists && access(path.c_str(), W_OK) != 0) {
        const std::optional<uid_t> owner = ownerOf(path);
        return "archive '" + path + "' is not writable by " + self + (owner ? " (it belongs to " + userText(*owner) + ")" : std::string()) +
               ": record into a file of your own, or as its owner";
    }
    bool sideFilesExist = true;
    for (const char* suffix : {"-wal", "-shm"}) {
        const std::string side = path + suffix;
        if (!exists(side)) {
            sideFilesExist = false;
            continue;
        }
        if (access(side.c_str(), W_OK) == 0) continue;
        const std::optional<uid_t> owner = ownerOf(side);
        return "archive '" + path + "': its file '" + side + "' is not writable by " + self +
               (owner ? " (it belongs to " + userText(*owner) + ", whose reading of the archive left it)" : std::string()) +
               ": remove '" + path + "-wal' and '" + path + "-shm' while no process has the archive open, or record as that user";
    }
    if ((!archiveExists || !sideFilesExist) && access(folder.c_str(), W_OK) != 0) {
        return "cannot record into archive '" + path + "': " + self + " may not create files in its folder '" + folder +
               "' (SQLite keeps '" + std::filesystem::path(path).filename().string() + "-wal' and '-shm' beside it while recording): record into a folder of your own";
    }
    return {};
}

}  // namespace isochron
