#include "nodes/io/text_output.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "nodes/io/output_path.h"

namespace isochron {
namespace {

/// stdio buffer of an output file: lines are formatted straight into it.
constexpr std::size_t kFileBufferBytes = 64 * 1024;

}  // namespace

void TextOutput::open(const std::string& path) {
    path_ = path;
    if (path == "-") {
        out_ = stdout;
        return;
    }
    refuseUnwritableOutput(path);
    buffer_.resize(kFileBufferBytes);
    file_.reset(std::fopen(path.c_str(), "w"));
    if (!file_) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    std::setvbuf(file_.get(), buffer_.data(), _IOFBF, buffer_.size());
    out_ = file_.get();
}

std::string TextOutput::writeError() {
    if (!std::ferror(out_)) return {};
    if (out_ == stdout && errno == EPIPE) {
        std::clearerr(out_);
        return {};
    }
    return "writing '" + path_ + "' failed: " + std::strerror(errno);
}

std::string TextOutput::close() {
    if (out_ == stdout) {
        std::fflush(stdout);
        return writeError();
    }
    if (!file_) return {};
    if (std::fclose(file_.release()) != 0) return "closing '" + path_ + "' failed: " + std::strerror(errno);
    return {};
}

}  // namespace isochron
