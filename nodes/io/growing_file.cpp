#include "nodes/io/growing_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/files/outputs_under_final_name.h"
#include "nodes/io/output_path.h"
#include "nodes/io/partial_file.h"

namespace isochron {

void GrowingFile::begin(const std::string& path, NewFile newFile) {
    namespace fs = std::filesystem;
    // A renamed file would replace a symlink or a device: write through the link (to the file it
    // names, created when missing), and into a device in place.
    refuseUnwritableOutput(path);
    // The kernel's own resolution decides what `path` is: /dev/stdout reaches a pipe or a terminal
    // through /proc links that name no file (followSymlinks() gives "pipe:[1234]").
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    inPlace_ = fs::exists(status) && !fs::is_regular_file(status);
    target_ = inPlace_ ? path : followSymlinks(path);
    partialPath_.clear();
    direct_ = false;
    forgetOutputUnderFinalName(std::exchange(movedAsideTicket_, -1));
    if (inPlace_) {
        // Opened later by the sink (a sound file at its first segment, when its rate is known), so
        // check now that it can be.
        std::FILE* probe = std::fopen(target_.c_str(), "ab");
        if (!probe) throw std::runtime_error("cannot write '" + target_ + "': " + std::strerror(errno));
        std::fclose(probe);
        return;
    }
    struct stat replaced {};
    const bool replacing = ::stat(target_.c_str(), &replaced) == 0;
    if (!replacing && newFile == NewFile::WrittenUnderItsName) {
        // Nothing to protect: the output grows under its name, where a reader can follow it. Created
        // exclusively, so a file that appeared meanwhile is still replaced only when complete.
        const int descriptor = ::open(target_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (descriptor >= 0) {
            ::close(descriptor);
            direct_ = true;
            movedAsideTicket_ = rememberOutputUnderFinalName(target_, partialFileName(target_));
            return;
        }
        if (errno != EEXIST) throw std::runtime_error("cannot write '" + target_ + "': " + std::strerror(errno));
    }
    // Created now (empty) to hold its name for this writer.
    partialPath_ = createPartialFile(target_);
    // The replacement keeps the permissions of the file it replaces (a private 600 recording
    // re-recorded became 644, readable by all); set before a byte is written into it.
    if (replacing && ::chmod(partialPath_.c_str(), replaced.st_mode & 07777) != 0) {
        const std::string reason = std::strerror(errno), partial = partialPath_;
        discard();
        throw std::runtime_error("cannot give '" + partial + "' the permissions of '" + target_ + "': " + reason);
    }
}

GrowingFile::~GrowingFile() { forgetOutputUnderFinalName(movedAsideTicket_); }

GrowingFile::Ending GrowingFile::finish(bool complete, const std::string& what) {
    forgetOutputUnderFinalName(std::exchange(movedAsideTicket_, -1));
    if (std::exchange(direct_, false) && !complete) {
        return {{}, what + " was cut short (the run stopped or a node failed): kept as '" + target_ + "', as far as it got"};
    }
    if (inPlace_ || partialPath_.empty()) return {};
    const std::string partial = std::exchange(partialPath_, std::string());
    if (complete) {
        std::error_code error;
        std::filesystem::rename(partial, target_, error);
        if (!error) return {};
        std::error_code ignored;
        return {"cannot rename '" + partial + "' to '" + target_ + "': " + error.message() +
                    (std::filesystem::exists(partial, ignored) ? " (" + what + " is kept as '" + partial + "')" : std::string()),
                {}};
    }
    // Atomic: of two writers cut short at once, one takes the name and the other keeps its partial file.
    // A file system without RENAME_NOREPLACE (EINVAL) gets the same rule, checked first.
    int renamed = ::renameat2(AT_FDCWD, partial.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE);
    if (renamed != 0 && errno == EINVAL) {
        std::error_code error;
        if (std::filesystem::exists(std::filesystem::symlink_status(target_, error))) errno = EEXIST;
        else renamed = std::rename(partial.c_str(), target_.c_str());
    }
    const int renameError = renamed == 0 ? 0 : errno;
    if (renamed == 0) return {{}, what + " was cut short (the run stopped or a node failed): kept as '" + target_ + "', as far as it got"};
    if (renameError == EEXIST) {
        return {{}, what + " was cut short (the run stopped or a node failed), so it did not replace '" + target_ + "': it is kept as '" + partial + "'"};
    }
    return {"cannot rename '" + partial + "' to '" + target_ + "': " + std::strerror(renameError) + " (" + what + ", cut short, is kept as '" +
                partial + "')",
            {}};
}

void GrowingFile::discard() {
    forgetOutputUnderFinalName(std::exchange(movedAsideTicket_, -1));
    if (std::exchange(direct_, false)) std::remove(target_.c_str());
    if (!partialPath_.empty()) std::remove(partialPath_.c_str());
    partialPath_.clear();
}

}  // namespace isochron
