#pragma once

#include <string>

namespace isochron::run {

/// Holds the telemetry file of this run for the run's length, so that a second run given the same
/// file is refused instead of writing into it at once (one run's snapshots overwritten, a line torn in
/// two). An advisory lock (flock) on the file; devices (/dev/null) are not locked. The file is opened
/// without truncating it, so a refused run leaves the other run's file as it is; a file this lock
/// created is removed again unless keep() was called (a run refused before it wrote any telemetry
/// leaves nothing behind). [setup thread]
class TelemetryFileLock {
public:
    TelemetryFileLock() = default;
    /// Locks `path`; throws std::runtime_error naming the file when another process holds it or it
    /// cannot be opened.
    explicit TelemetryFileLock(const std::string& path);
    ~TelemetryFileLock();
    TelemetryFileLock(const TelemetryFileLock&) = delete;
    TelemetryFileLock& operator=(const TelemetryFileLock&) = delete;
    TelemetryFileLock(TelemetryFileLock&& other) noexcept;
    TelemetryFileLock& operator=(TelemetryFileLock&& other) noexcept;

    /// The run writes the file now: it stays when the lock is released.
    void keep() { created_ = false; }

private:
    void release() noexcept;

    std::string path_;
    int descriptor_ = -1;
    bool created_ = false;
};

}  // namespace isochron::run
