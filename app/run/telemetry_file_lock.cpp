#include "app/run/telemetry_file_lock.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace isochron::run {

TelemetryFileLock::TelemetryFileLock(const std::string& path) : path_(path) {
    struct stat before {};
    const bool existed = ::stat(path.c_str(), &before) == 0;
    if (existed && !S_ISREG(before.st_mode)) return;  // a device is written in place, by anyone
    descriptor_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (descriptor_ < 0) throw std::runtime_error("cannot write telemetry file " + path + ": " + std::strerror(errno));
    created_ = !existed;
    if (::flock(descriptor_, LOCK_EX | LOCK_NB) != 0) {
        const int reason = errno;
        release();
        if (reason == EWOULDBLOCK) {
            throw std::runtime_error("--telemetry " + path +
                                     ": another run is writing its telemetry there now; both would write into one file: give this run another file");
        }
        throw std::runtime_error("cannot lock telemetry file " + path + ": " + std::strerror(reason));
    }
}

TelemetryFileLock::~TelemetryFileLock() { release(); }

TelemetryFileLock::TelemetryFileLock(TelemetryFileLock&& other) noexcept
    : path_(std::move(other.path_)), descriptor_(std::exchange(other.descriptor_, -1)), created_(std::exchange(other.created_, false)) {}

TelemetryFileLock& TelemetryFileLock::operator=(TelemetryFileLock&& other) noexcept {
    if (this != &other) {
        release();
        path_ = std::move(other.path_);
        descriptor_ = std::exchange(other.descriptor_, -1);
        created_ = std::exchange(other.created_, false);
    }
    return *this;
}

void TelemetryFileLock::release() noexcept {
    if (descriptor_ < 0) return;
    if (created_) ::unlink(path_.c_str());
    ::close(descriptor_);
    descriptor_ = -1;
    created_ = false;
}

}  // namespace isochron::run
