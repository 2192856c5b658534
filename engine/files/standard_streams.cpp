#include "engine/files/standard_streams.h"

#include <fcntl.h>
#include <unistd.h>

namespace isochron {

void keepStandardStreamsOpen() {
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) != -1) continue;
        // open() returns the lowest free number: this one, since the lower ones are open by now. Read
        // only: a write to it fails with EBADF as on the closed descriptor, so what the program does
        // about a closed standard output (a sink on '-' stops as on a closed pipe) stays the same.
        const int opened = open("/dev/null", O_RDONLY);
        if (opened != -1 && opened != fd) close(opened);
    }
}

int aboveStandardStreams(int fd) {
    if (fd < 0 || fd > 2) return fd;
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return moved;
}

}  // namespace isochron
