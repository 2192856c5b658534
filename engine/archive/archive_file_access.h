// How an archive file is opened so that reading never writes, and why recording into one cannot work.
//
// SQLite's WAL mode keeps two files beside the archive while any connection has it open: X-wal (the
// log) and X-shm (the readers' shared index), removed when the last connection closes cleanly. A
// reader that creates them owns them: run as another user, it leaves files the archive's owner
// cannot write, and the owner's next recording fails ("attempt to write a readonly database"). A
// reader that cannot create them (a read-only filesystem, a folder it may not write) cannot open the
// archive at all through SQLite's usual path ("unable to open database file"). So a reader opens the
// file read-only (mode=ro) and lets SQLite create the two files only where they then belong to the
// archive's owner (this process is the owner, or root, whom SQLite makes give them to the owner);
// otherwise, while no X-wal exists (no writer has the file open: a writer keeps it), it reads the file
// as immutable (immutable=1: no locks, no side files; https://www.sqlite.org/wal.html, "Read-Only
// Databases"). Such a reader does not see a recording that starts after it opened the file.
#pragma once

#include <string>

namespace isochron {

/// The SQLite URI opening the archive `path` for reading without writing to it or creating files its
/// owner could not use. Throws ArchiveError naming the file and what to do when it cannot be read so
/// (a WAL left by a writer that did not close it, beside no X-shm, where this user may not create one).
/// [any thread] [may block on disk: stat calls]
std::string readOnlyArchiveUri(const std::string& path);

/// Why recording into `path` cannot work, naming the file and what to do, or "": a read-only
/// filesystem, the archive or its X-wal / X-shm not writable by this user (a reader running as
/// another user left them), a folder this user may not create files in. [any thread] [may block on disk]
std::string unwritableArchiveProblem(const std::string& path);

}  // namespace isochron
