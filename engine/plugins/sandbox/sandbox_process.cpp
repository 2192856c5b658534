#include "engine/plugins/sandbox/sandbox_process.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "engine/plugins/sandbox/sandbox_protocol.h"

extern char** environ;

namespace isochron::sandbox {

std::filesystem::path helperProgram() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&helperProgram), &info) || !info.dli_fname) {
        throw std::runtime_error("cannot tell where the engine library is, to find isochron-plugin-sandbox");
    }
    // The helper's path relative to the engine library's folder, installed and in the build tree (CMake).
    const std::filesystem::path library = std::filesystem::path(info.dli_fname).parent_path();
    for (const char* relative : {ISOCHRON_SANDBOX_INSTALLED, ISOCHRON_SANDBOX_BUILT}) {
        const std::filesystem::path helper = (library / relative).lexically_normal();
        if (access(helper.c_str(), X_OK) == 0) return helper;
    }
    throw std::runtime_error("the sandbox helper isochron-plugin-sandbox is not in " + (library / ISOCHRON_SANDBOX_INSTALLED).lexically_normal().string() +
                             " (is Isochron fully installed?)");
}

SandboxProcess::SandboxProcess(const std::filesystem::path& plugin, const std::string& type, int exchangeFd, int arenaFd) {
    const std::string program = helperProgram().string();
    const std::string parent = std::to_string(getpid());
    const std::string fd = std::to_string(kExchangeFd);
    const std::string samplesFd = std::to_string(kArenaFd);
    std::vector<const char*> argv = {program.c_str(), kPluginOption, plugin.c_str(), kTypeOption, type.c_str(),
                                     kExchangeOption, fd.c_str(), kParentOption, parent.c_str()};
    if (arenaFd >= 0) {
        argv.push_back(kArenaOption);
        argv.push_back(samplesFd.c_str());
    }
    argv.push_back(nullptr);
    // The memfds are close-on-exec; dup2 onto the agreed numbers clears that for the child alone.
    // Duplicated high first, so neither can already be one of those numbers (dup2 onto itself keeps the flag).
    const int high = fcntl(exchangeFd, F_DUPFD_CLOEXEC, 64);
    if (high < 0) throw std::runtime_error(std::string("cannot pass the shared memory to the sandbox: ") + std::strerror(errno));
    const int highArena = arenaFd >= 0 ? fcntl(arenaFd, F_DUPFD_CLOEXEC, 64) : -1;
    if (arenaFd >= 0 && highArena < 0) {
        close(high);
        throw std::runtime_error(std::string("cannot pass the shared sample arena to the sandbox: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, high, kExchangeFd);
    if (highArena >= 0) posix_spawn_file_actions_adddup2(&actions, highArena, kArenaFd);
    const int failed = posix_spawn(&pid_, program.c_str(), &actions, nullptr, const_cast<char* const*>(argv.data()), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(high);
    if (highArena >= 0) close(highArena);
    if (failed != 0) throw std::runtime_error("cannot start " + program + ": " + std::strerror(failed));
}

SandboxProcess::~SandboxProcess() { kill(); }

bool SandboxProcess::ended() {
    if (reaped_) return true;
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done != pid_) return false;
    reaped_ = true;
    status_ = status;
    return true;
}

void SandboxProcess::kill() {
    if (reaped_ || pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    wait();
}

void SandboxProcess::wait() {
    if (reaped_ || pid_ <= 0) return;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
    reaped_ = true;
    status_ = status;
}

std::string SandboxProcess::ending() const {
    if (!reaped_) return "is still running";
    if (WIFSIGNALED(status_)) {
        const int signal = WTERMSIG(status_);
        const char* description = sigdescr_np(signal);
        return std::string("died of ") + (description ? description : "a signal") + " (signal " + std::to_string(signal) + ")";
    }
    return "exited with status " + std::to_string(WEXITSTATUS(status_));
}

}  // namespace isochron::sandbox
