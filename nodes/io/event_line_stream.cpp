#include "nodes/io/event_line_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace isochron {
namespace {

/// Bytes taken from the pipe by one read(): the pipe's own buffer holds the rest, and its writer
/// waits while the run does not consume.
constexpr std::size_t kReadBytes = 64 * 1024;

}  // namespace

EventLineStream::EventLineStream(const std::string& path, int maxAttributes) : path_(path), maxAttributes_(maxAttributes) {
    // Non-blocking: opening a pipe to read waits for a writer otherwise, in a call no stop request ends.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
}

EventLineStream::~EventLineStream() {
    if (fd_ >= 0) ::close(fd_);
}

void EventLineStream::takeLines(std::vector<EventLine>& lines, std::size_t maxLines) {
    while (lines.size() < maxLines) {
        const std::size_t newline = buffer_.find('\n', taken_);
        if (newline == std::string::npos) break;
        const std::string_view line(buffer_.data() + taken_, newline - taken_);
        ++lineNumber_;
        if (line.size() > kMaxEventLineBytes) throw std::runtime_error(longLineMessage(path_, lineNumber_, kMaxEventLineBytes));
        taken_ = newline + 1;
        if (std::optional<EventLine> event = parseEventLine(line, lineNumber_, path_, maxAttributes_)) lines.push_back(std::move(*event));
    }
}

EventLineStream::State EventLineStream::read(std::vector<EventLine>& lines, std::size_t maxLines) {
    const std::size_t before = lines.size();
    const auto found = [&](State otherwise) { return lines.size() > before ? State::Lines : otherwise; };
    takeLines(lines, maxLines);
    while (lines.size() < maxLines && !endOfPipe_) {
        // Until a writer has opened the pipe, read() would say "end" at once; poll() says nothing
        // then (Linux reports POLLHUP only once a writer has come and gone).
        pollfd ready{fd_, POLLIN, 0};
        if (::poll(&ready, 1, 0) <= 0 || (ready.revents & (POLLIN | POLLHUP | POLLERR)) == 0) return found(State::Waiting);
        buffer_.erase(0, taken_);
        taken_ = 0;
        const std::size_t had = buffer_.size();
        buffer_.resize(had + kReadBytes);
        const ssize_t got = ::read(fd_, buffer_.data() + had, kReadBytes);
        buffer_.resize(had + static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR) return found(State::Waiting);
            throw std::runtime_error("cannot read '" + path_ + "': " + std::strerror(errno));
        }
        if (got == 0) {
            endOfPipe_ = true;
            break;
        }
        takeLines(lines, maxLines);
        // An unfinished line longer than any event line: refused now, not held until it ends.
        if (buffer_.size() - taken_ > kMaxEventLineBytes) throw std::runtime_error(longLineMessage(path_, lineNumber_ + 1, kMaxEventLineBytes));
    }
    if (!endOfPipe_ || lines.size() >= maxLines) return found(State::Waiting);
    takeLines(lines, maxLines);
    if (lines.size() >= maxLines) return State::Lines;
    if (taken_ < buffer_.size()) {  // the last line, without a line break
        const std::string_view line(buffer_.data() + taken_, buffer_.size() - taken_);
        taken_ = buffer_.size();
        if (std::optional<EventLine> event = parseEventLine(line, ++lineNumber_, path_, maxAttributes_)) lines.push_back(std::move(*event));
    }
    return found(State::Ended);
}

}  // namespace isochron
