// Where a sink may write: the checks every file sink (sound files, CSV, JSON lines) makes on its
// `path` before opening it. Opening a named pipe (FIFO) for writing blocks until another program
// opens its other end, in a call no stop request can interrupt (Ctrl-C and SIGTERM were ignored),
// and a socket cannot be opened at all; both are refused with the reason, as are a folder and a
// file in a folder that does not exist. A symlink is followed to
// the file it names, which need not exist yet (a dangling link is written through, never replaced).
#pragma once

#include <optional>
#include <string>

namespace isochron {

/// Throws std::runtime_error saying why a sink cannot write `path` ("<named>: ..."): it is (or a
/// symlink leads to) a named pipe, a socket or a folder, its symlinks loop, this user may not write it
/// (a write-protected file or device), or the folder it would be created in is missing, read-only or
/// closed to this user; "-" (standard output) is not checked. Asked before a run (--check) and when
/// a sink starts, so the run never finds out late. `named` says where the path was given (a parameter,
/// a command-line option). [setup thread]
void refuseUnwritableOutput(const std::string& path, const std::string& named = "parameter 'path'");

/// The file `path` names once every symlink in its last component is followed (a chain of links, each
/// relative to the folder it lies in), whether that file exists or not; `path` itself when it is not a
/// symlink. Throws std::runtime_error for a loop of links. [setup thread]
std::string followSymlinks(const std::string& path);

/// Whether `a` and `b` name one file: existing files by identity (hard links, "./x", links to
/// folders), others by the normal form of the file their symlink chains lead to, so a dangling link
/// and the not yet existing file it names are one. [setup thread]
bool sameFile(const std::string& a, const std::string& b);

/// Which of the files of the SQLite archive `archive` `path` names: "" for the archive itself, or
/// "-wal", "-shm" or "-journal", the files SQLite keeps beside it (and removes or rewrites while the
/// archive is open); nullopt for another file. [setup thread]
std::optional<std::string> archiveFileNamed(const std::string& path, const std::string& archive);

/// archiveFileNamed() for an open descriptor (standard output redirected by a shell, `1<>archive`):
/// which of the archive's files `fd` writes into, compared by identity; nullopt for another file, a
/// pipe or a terminal. [setup thread]
std::optional<std::string> archiveFileOpenAs(int fd, const std::string& archive);

}  // namespace isochron
