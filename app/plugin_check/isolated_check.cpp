#include "app/plugin_check/isolated_check.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

namespace isochron::check {
namespace {

/// The child's side: one line per call, "C"/"P"/"N" then the text, written straight to the pipe.
class PipeReport final : public CheckReport {
public:
    explicit PipeReport(int fd) : fd_(fd) {}
    void startCell(const std::string& cell) override { send('C', cell); }
    void problem(const std::string& text) override { send('P', text); }
    void note(const std::string& text) override { send('N', text); }

private:
    void send(char tag, std::string text) {
        for (char& ch : text) {
            if (ch == '\n') ch = ' ';
        }
        std::string line = std::string(1, tag) + text + "\n";
        for (std::size_t done = 0; done < line.size();) {
            const ssize_t n = write(fd_, line.data() + done, line.size() - done);
            if (n <= 0) return;
            done += static_cast<std::size_t>(n);
        }
    }
    int fd_;
};

}  // namespace

void runIsolated(const std::function<void(CheckReport&)>& work, CheckReport& report, unsigned timeoutSeconds) {
    int fds[2];
    if (pipe(fds) != 0) {
        report.problem(std::string("cannot create a pipe: ") + std::strerror(errno));
        return;
    }
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child < 0) {
        report.problem(std::string("cannot fork: ") + std::strerror(errno));
        return;
    }
    if (child == 0) {
        close(fds[0]);
        alarm(timeoutSeconds);
        PipeReport relay(fds[1]);
        try {
            work(relay);
        } catch (const std::exception& e) {
            relay.problem(std::string("the check itself failed: ") + e.what());
        }
        close(fds[1]);
        _exit(0);  // no static destructors: they belong to the parent
    }
    close(fds[1]);
    std::string pending, cell = "loading";
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        pending.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1)) {
            const std::string text = pending.substr(1, end - 1);
            if (pending[0] == 'C') {
                cell = text;
                report.startCell(text);
            } else if (pending[0] == 'P') {
                report.problem(text);
            } else {
                report.note(text);
            }
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        report.problem(cell + ": did not finish within " + std::to_string(timeoutSeconds) + " s (an endless loop or a blocking call?)");
    } else if (WIFSIGNALED(status)) {
        report.problem(cell + ": crashed (" + strsignal(WTERMSIG(status)) + ")");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        report.problem(cell + ": the check process exited with status " + std::to_string(WEXITSTATUS(status)));
    }
}

}  // namespace isochron::check
