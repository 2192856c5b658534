// The child process of a sandboxed node: the helper program isochron-plugin-sandbox, started with
// the plugin file, the operator type, the exchange's memfd and the shared sample arena's, and how
// it ended.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace isochron::sandbox {

/// Where isochron-plugin-sandbox is: installed beside the engine library (at the same relative
/// place in the build tree). Throws std::runtime_error when it is not there. [any thread]
std::filesystem::path helperProgram();

/// A running child; killed (if still running) and reaped on destruction. [one thread]
class SandboxProcess {
public:
    /// Start the helper for operator `type` of `plugin`, sharing the memfd `exchangeFd` and the
    /// arena's memfd `arenaFd` (-1: none; the child maps it read-only). Throws std::runtime_error.
    /// [may allocate]
    SandboxProcess(const std::filesystem::path& plugin, const std::string& type, int exchangeFd, int arenaFd);
    ~SandboxProcess();
    SandboxProcess(const SandboxProcess&) = delete;
    SandboxProcess& operator=(const SandboxProcess&) = delete;

    /// Whether it has ended; if so, ending() says how. [no allocation]
    bool ended();
    /// Kill it (SIGKILL) and reap it.
    void kill();
    /// Wait for it to exit on its own.
    void wait();
    /// How it ended, e.g. "died of Segmentation fault (signal 11)" or "exited with status 3".
    std::string ending() const;

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int status_ = 0;
};

}  // namespace isochron::sandbox
