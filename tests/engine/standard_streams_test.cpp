// Standard streams closed at start: keepStandardStreamsOpen() gives each closed one /dev/null, and a
// descriptor whose contents must never receive a stray message is moved above the standard numbers.
// Each case closes descriptors in a forked child (the test process keeps its own) and reports by its
// exit status.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <cerrno>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "engine/files/standard_streams.h"

using namespace isochron;

namespace {

// Runs `check` in a forked child and gives back its exit status (-1 when it did not exit normally).
int inChild(const std::function<int()>& check) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) _exit(check());
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool isOpen(int fd) { return fcntl(fd, F_GETFD) != -1; }

}  // namespace

TEST_CASE("closed standard streams are given /dev/null read-only: the next file opened is numbered above them, writes fail as before", "[files]") {
    const int status = inChild([] {
        close(1);
        close(2);
        keepStandardStreamsOpen();
        if (!isOpen(1) || !isOpen(2)) return 1;
        const int next = open("/dev/null", O_RDONLY);
        if (next < 3) return 2;
        // A write to standard error still fails as on a closed descriptor (and lands in no file).
        if (write(2, "x", 1) != -1 || errno != EBADF) return 3;
        return 0;
    });
    CHECK(status == 0);
}

TEST_CASE("a descriptor numbered as a standard stream is moved above them, close-on-exec, the low number closed", "[files]") {
    const int status = inChild([] {
        close(2);
        const int low = memfd_create("isochron-test", 0);
        if (low != 2) return 1;
        const int moved = aboveStandardStreams(low);
        if (moved < 3) return 2;
        if (isOpen(2)) return 3;
        if ((fcntl(moved, F_GETFD) & FD_CLOEXEC) == 0) return 4;
        return 0;
    });
    CHECK(status == 0);
    // A descriptor already above them is given back unchanged.
    const int fd = open("/dev/null", O_RDONLY);
    REQUIRE(fd > 2);
    CHECK(aboveStandardStreams(fd) == fd);
    close(fd);
}
