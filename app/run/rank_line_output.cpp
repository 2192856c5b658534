#include "app/run/rank_line_output.h"

#include <cerrno>
#include <iostream>

#include <unistd.h>

namespace isochron::run {

RankLineOutput::RankLineOutput(int fd, std::string prefix) : fd_(fd), prefix_(std::move(prefix)) {}

RankLineOutput::~RankLineOutput() {
    for (const auto& [thread, line] : unfinished_) {
        if (!line.empty()) writeLine(line);
    }
}

RankLineOutput::int_type RankLineOutput::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char character = traits_type::to_char_type(c);
    append(&character, 1);
    return c;
}

std::streamsize RankLineOutput::xsputn(const char* text, std::streamsize count) {
    append(text, static_cast<std::size_t>(count));
    return count;
}

void RankLineOutput::append(const char* text, std::size_t count) {
    const std::lock_guard lock(mutex_);
    std::string& line = unfinished_[std::this_thread::get_id()];
    for (std::size_t i = 0; i < count; ++i) {
        line += text[i];
        if (text[i] != '\n') continue;
        writeLine(line);
        line.clear();
    }
}

void RankLineOutput::writeLine(const std::string& line) const {
    std::string whole = prefix_ + line;
    if (whole.back() != '\n') whole += '\n';
    // A line longer than a pipe takes at once may be split by the kernel: still written in full.
    for (std::size_t written = 0; written < whole.size();) {
        const ssize_t result = ::write(fd_, whole.data() + written, whole.size() - written);
        if (result < 0 && errno == EINTR) continue;
        if (result <= 0) return;  // a closed terminal: the line is lost, as with std::cerr
        written += static_cast<std::size_t>(result);
    }
}

void printWholeLinesOfRank(int rank) {
    // Never destroyed: lines printed while static objects are destroyed still find their buffer.
    const std::string prefix = "[rank " + std::to_string(rank) + "] ";
    static auto* output = new RankLineOutput(STDOUT_FILENO, prefix);
    static auto* errors = new RankLineOutput(STDERR_FILENO, prefix);
    std::cout.flush();
    std::cout.rdbuf(output);
    std::cerr.rdbuf(errors);
}

}  // namespace isochron::run
