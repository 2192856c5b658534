#include "app/plugin_check/isolated_check.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "engine/plugins/plugin_crash_note.h"

namespace isochron::check {
namespace {

// The child reports on its pipe one line per event: a tag, then the text.
constexpr char kCellTag = 'C', kProblemTag = 'P', kNoteTag = 'N';
constexpr char kTimedOutTag = 'T';  // the plugin calls in progress when the time ran out ("" when none)
constexpr char kCrashedTag = 'K';   // the plugin call a fatal signal hit
constexpr char kExitedTag = 'X';    // exit() was called: its status, a space, the plugin call it came from ("" outside one)
constexpr char kFinishedTag = 'F';  // the work ran to its end
constexpr int kTimedOutStatus = 124;
constexpr int kExitedStatus = 125;
// How long after its own deadline the child may take to report it before it is killed unheard
// (its watchdog needs the allocator, which a hung plugin may hold).
constexpr int kUnheardGraceSeconds = 5;
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// The child's report pipe, for onCrashSignal (a signal handler reaches only globals).
int crashReportFd = -1;

void writeAll(int fd, const char* data, std::size_t size) noexcept {
    while (size > 0) {
        const ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

void writeText(int fd, const char* text) noexcept { writeAll(fd, text, std::strlen(text)); }

// One write per line, so lines of the checking thread and the watchdog do not interleave.
void sendLine(int fd, char tag, std::string text) {
    for (char& ch : text) {
        if (ch == '\n') ch = ' ';
    }
    const std::string line = std::string(1, tag) + text + "\n";
    writeAll(fd, line.data(), line.size());
}

// Names the plugin call the signal hit, then lets the signal end the child as it would have.
// Async-signal-safe: the crashing thread's slot was claimed when its plugin call began.
void onCrashSignal(int signal) {
    if (const PluginCallInProgress* call = thisThreadsPluginCall()) {
        const PluginCallSite* site = call->site.load(std::memory_order_acquire);
        const char* hook = call->hook.load(std::memory_order_relaxed);
        if (site && hook) {
            writeText(crashReportFd, "K");
            writeText(crashReportFd, site->text.c_str());
            writeText(crashReportFd, " in its ");
            writeText(crashReportFd, hook);
            writeText(crashReportFd, " hook\n");
        }
    }
    std::signal(signal, SIG_DFL);
    raise(signal);  // pending until this handler returns
}

// exit() in the child: a plugin ended the process (in isochron-run that ends the whole run). Names the
// plugin call it came from, then ends the child before anything else runs at exit.
void onExitInChild(int status, void*) {
    // exit() destroyed this thread's thread_locals first: the call is read from the crash note's own mark.
    const std::string where = describeThisThreadsPluginCall();
    sendLine(crashReportFd, kExitedTag, std::to_string(status) + " " + where);
    _exit(kExitedStatus);
}

/// The child's side of the report.
class PipeReport final : public CheckReport {
public:
    explicit PipeReport(int fd) : fd_(fd) {}
    void startCell(const std::string& cell) override { sendLine(fd_, kCellTag, cell); }
    void problem(const std::string& text) override { sendLine(fd_, kProblemTag, text); }
    void note(const std::string& text) override { sendLine(fd_, kNoteTag, text); }

private:
    int fd_;
};

[[noreturn]] void runChild(const std::function<void(CheckReport&)>& work, int fd, unsigned timeoutSeconds) {
    // The engine's crash note would tell the user the process ends: here only this child does, and
    // the parent reports the crash, so the checker's handler replaces it.
    installPluginCrashNote();
    crashReportFd = fd;
    on_exit(&onExitInChild, nullptr);
    for (int signal : kCrashSignals) {
        struct sigaction action {};
        action.sa_handler = &onCrashSignal;
        sigemptyset(&action.sa_mask);
        sigaction(signal, &action, nullptr);
    }
    // A hung hook cannot be unwound: the watchdog reports the calls in progress and ends the child.
    std::thread([fd, timeoutSeconds] {
        std::this_thread::sleep_for(std::chrono::seconds(timeoutSeconds));
        sendLine(fd, kTimedOutTag, describeUnreturnedPluginCalls());
        _exit(kTimedOutStatus);
    }).detach();
    PipeReport relay(fd);
    try {
        work(relay);
    } catch (const std::exception& e) {
        relay.problem(std::string("the check itself failed: ") + e.what());
    }
    sendLine(fd, kFinishedTag, "");
    _exit(0);  // no static destructors: they belong to the parent
}

/// The parent's side: relays the child's lines to `report` and keeps what the verdict needs.
struct ChildReport {
    std::string cell = "loading";
    std::string crashedIn;          // "" unless a crash named its plugin call
    std::string callsWhenTimedOut;  // the watchdog's words, when timedOut
    bool timedOut = false;
    std::string exitStatus;  // what exit() was given, "" unless exit() was called
    std::string exitedIn;    // the plugin call that called exit(), "" when none was running
    bool finished = false;

    void take(char tag, const std::string& text, CheckReport& report) {
        if (tag == kCellTag) {
            cell = text;
            report.startCell(text);
        } else if (tag == kProblemTag) {
            report.problem(text);
        } else if (tag == kNoteTag) {
            report.note(text);
        } else if (tag == kTimedOutTag) {
            timedOut = true;
            callsWhenTimedOut = text;
        } else if (tag == kCrashedTag) {
            crashedIn = text;
        } else if (tag == kExitedTag) {
            const std::size_t space = text.find(' ');
            exitStatus = text.substr(0, space);
            exitedIn = space == std::string::npos ? std::string() : text.substr(space + 1);
        } else if (tag == kFinishedTag) {
            finished = true;
        }
    }
};

// Reads the child's lines until it closes the pipe or `deadline` passes; false on the deadline.
bool relayUntil(int fd, std::chrono::steady_clock::time_point deadline, ChildReport& child, CheckReport& report) {
    std::string pending;
    char buffer[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd watched{fd, POLLIN, 0};
        const int ready = poll(&watched, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;  // the deadline, or a pipe that cannot be watched: stop listening
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;
        pending.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1)) {
            child.take(pending[0], pending.substr(1, end - 1), report);
        }
    }
}

}  // namespace

void runIsolated(const std::function<void(CheckReport&)>& work, CheckReport& report, unsigned timeoutSeconds) {
    int fds[2];
    if (pipe(fds) != 0) {
        report.problem(std::string("cannot create a pipe: ") + std::strerror(errno));
        return;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        report.problem(std::string("cannot fork: ") + std::strerror(errno));
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        runChild(work, fds[1], timeoutSeconds);
    }
    close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds + kUnheardGraceSeconds);
    ChildReport child;
    const bool heard = relayUntil(fds[0], deadline, child, report);
    if (!heard) kill(pid, SIGKILL);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    const std::string limit = std::to_string(timeoutSeconds) + " s";
    if (!heard) {
        report.problem(child.cell + ": did not finish within " + limit + ", and did not say which plugin hook it was in (killed)");
    } else if (child.timedOut) {
        report.problem(child.cell + ": did not finish within " + limit +
                       (child.callsWhenTimedOut.empty()
                            ? " (no plugin hook was running: the operator is slow; give it a larger --timeout)"
                            : "; " + child.callsWhenTimedOut +
                                  " had not returned (an endless loop or a blocking call? if it is only slow, give it a larger --timeout)"));
    } else if (WIFSIGNALED(status)) {
        report.problem(child.cell + ": crashed (" + strsignal(WTERMSIG(status)) + ")" +
                       (child.crashedIn.empty() ? "" : " in " + child.crashedIn));
    } else if (!child.exitStatus.empty()) {
        // The checker's own child would otherwise end quietly: exit(0) looked like a run without problems.
        report.problem(child.cell + ": " + (child.exitedIn.empty() ? "the plugin" : child.exitedIn) + " called exit(" + child.exitStatus +
                       ")" + (child.exitedIn.empty() ? " outside its hooks (from a thread of its own?)" : "") +
                       "; a plugin must not end the process: in isochron-run that ends the whole run (status 2), sandboxed it disables "
                       "the node. Throw an exception to fail the node instead");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        report.problem(child.cell + ": the check process exited with status " + std::to_string(WEXITSTATUS(status)));
    } else if (!child.finished) {
        report.problem(child.cell + ": the check process ended (status 0) before the check was done: did the plugin call _exit() or quick_exit()? "
                       "A plugin must not end the process; throw an exception to fail the node instead");
    }
}

}  // namespace isochron::check
