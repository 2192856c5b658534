#include "nodes/io/text_output.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace isochron {
namespace {

/// stdio buffer of an output file: lines are formatted straight into it.
constexpr std::size_t kFileBufferBytes = 64 * 1024;

}  // namespace

void TextOutput::open(const std::string& path) {
    writingPath_ = path;
    if (path == "-") {
        out_ = stdout;
        return;
    }
    growing_.begin(path, GrowingFile::NewFile::WrittenUnderItsName);
    writingPath_ = growing_.writingPath();
    buffer_.resize(kFileBufferBytes);
    file_.reset(std::fopen(writingPath_.c_str(), "w"));
    if (!file_) {
        const int openError = errno;
        growing_.discard();
        throw std::runtime_error("cannot write '" + writingPath_ + "': " + std::strerror(openError));
    }
    std::setvbuf(file_.get(), buffer_.data(), _IOFBF, buffer_.size());
    out_ = file_.get();
}

std::string TextOutput::writeError() {
    if (!out_ || !std::ferror(out_)) return {};
    if (out_ == stdout && errno == EPIPE) {
        std::clearerr(out_);
        return {};
    }
    return "writing '" + writingPath_ + "' failed: " + std::strerror(errno);
}

GrowingFile::Ending TextOutput::close(bool complete, const std::string& what) {
    if (out_ == stdout) {
        std::fflush(stdout);
        return {writeError(), {}};
    }
    if (!file_) return {};
    out_ = nullptr;
    if (std::fclose(file_.release()) != 0) {
        const int closeError = errno;
        // Not renamed: what the disk holds of it may be cut anywhere.
        const GrowingFile::Ending kept = growing_.finish(false, what);
        return {"closing '" + writingPath_ + "' failed: " + std::strerror(closeError) + (kept.warning.empty() ? "" : "; " + kept.warning), {}};
    }
    return growing_.finish(complete, what);
}

void TextOutput::discard() {
    if (out_ == stdout) {
        std::fflush(stdout);
        return;
    }
    out_ = nullptr;
    file_.reset();
    growing_.discard();
}

}  // namespace isochron
