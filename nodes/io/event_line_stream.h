// Reading event JSON lines from a named pipe (FIFO) while its writer writes them: never blocking,
// and holding at most one unfinished line (up to kMaxEventLineBytes) plus one read of the pipe, so a
// writer that never stops (`tail -f log > fifo`) is read as the run consumes, not into memory first.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "nodes/io/event_lines.h"

namespace isochron {

/// A named pipe of event lines, read without blocking. [one thread at a time] [allocates]
class EventLineStream {
public:
    /// What read() found.
    enum class State {
        Lines,    ///< lines were appended (more may follow at once)
        Waiting,  ///< no complete line now: the writer has not written one yet (or has not opened the pipe)
        Ended     ///< every writer closed the pipe after the first one opened it, and every line is out
    };

    /// Opens `path` for reading without waiting for a writer. Throws std::runtime_error naming the path.
    EventLineStream(const std::string& path, int maxAttributes);
    ~EventLineStream();
    EventLineStream(const EventLineStream&) = delete;
    EventLineStream& operator=(const EventLineStream&) = delete;

    /// Appends to `lines` at most `maxLines` complete lines that can be had now (parsed; blank lines
    /// skipped), reading the pipe only as far as they need. Throws std::runtime_error naming the
    /// pipe and line for a bad line or one longer than kMaxEventLineBytes.
    State read(std::vector<EventLine>& lines, std::size_t maxLines);

private:
    /// Moves complete lines from the buffer into `lines` (up to `maxLines` in all).
    void takeLines(std::vector<EventLine>& lines, std::size_t maxLines);

    std::string path_;
    int maxAttributes_;
    int fd_ = -1;
    std::string buffer_;         // bytes read and not yet taken as lines
    std::size_t taken_ = 0;      // bytes of buffer_ already taken
    int lineNumber_ = 0;         // of the last line taken
    bool endOfPipe_ = false;     // read() returned 0 after the writer came
};

}  // namespace isochron
