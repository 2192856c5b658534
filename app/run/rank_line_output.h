// Standard output and error of one rank under mpirun, which merges every rank's onto one terminal:
// written in pieces (`std::cerr << a << b`, one write() each), two ranks' lines got mixed mid-line.
// A RankLineOutput writes each whole line with one write() (a pipe keeps a write of up to PIPE_BUF
// bytes together), starting with the rank ("[rank 2] isochron-run: error: ...").
#pragma once

#include <map>
#include <mutex>
#include <streambuf>
#include <string>
#include <thread>

namespace isochron::run {

/// A stream buffer that writes to a file descriptor one prefixed line per write(). Each thread's
/// unfinished line waits apart from the others', so threads printing at once do not mix either.
/// [any thread]
class RankLineOutput final : public std::streambuf {
public:
    /// Lines go to `fd`, each starting with `prefix`.
    RankLineOutput(int fd, std::string prefix);
    /// Writes what is left of unfinished lines.
    ~RankLineOutput() override;
    RankLineOutput(const RankLineOutput&) = delete;
    RankLineOutput& operator=(const RankLineOutput&) = delete;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize count) override;
    /// Nothing: a line goes out when it is complete (std::cerr flushes after every `<<`).
    int sync() override { return 0; }

private:
    /// Append `text` to the calling thread's line, writing every line it completes.
    void append(const char* text, std::size_t count);
    /// One write() of prefix + `line` (+ '\n' when it has none), retried on EINTR and short writes.
    void writeLine(const std::string& line) const;

    int fd_;
    std::string prefix_;
    std::mutex mutex_;
    std::map<std::thread::id, std::string> unfinished_;  // by thread: its line so far
};

/// Under several ranks: std::cout and std::cerr write whole lines starting with "[rank `rank`] ",
/// for the rest of the process. [main thread, before other threads print]
void printWholeLinesOfRank(int rank);

}  // namespace isochron::run
