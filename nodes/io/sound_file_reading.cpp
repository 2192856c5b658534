#include "nodes/io/sound_file_reading.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "engine/runtime/start_interruption.h"

namespace isochron {
namespace {

/// libsndfile's notes on the header it read through `file` (null: the open that failed last).
std::string headerLog(SNDFILE* file) {
    char log[8192] = {};
    sf_command(file, SFC_GET_LOG_INFO, log, sizeof log);
    return log;
}

/// The value of the first log line "<name> : value" (leading blanks ignored), or nothing.
std::optional<std::string> logField(const std::string& log, std::string_view name) {
    for (std::size_t line = 0; line < log.size();) {
        const std::size_t end = std::min(log.find('\n', line), log.size());
        std::string_view text(log.data() + line, end - line);
        text.remove_prefix(std::min(text.find_first_not_of(' '), text.size()));
        const std::size_t colon = text.find(':');
        if (text.starts_with(name) && colon != std::string_view::npos &&
            text.substr(name.size(), colon - name.size()).find_first_not_of(' ') == std::string_view::npos) {
            std::string_view value = text.substr(colon + 1);
            value.remove_prefix(std::min(value.find_first_not_of(' '), value.size()));
            return std::string(value);
        }
        line = end + 1;
    }
    return std::nullopt;
}

/// The whole number a log value starts with ("0 (should be 2)" gives 0), or nothing.
std::optional<long long> leadingNumber(const std::optional<std::string>& value) {
    if (!value || value->empty()) return std::nullopt;
    char* end = nullptr;
    const long long number = std::strtoll(value->c_str(), &end, 10);
    if (end == value->c_str()) return std::nullopt;
    return number;
}

/// What is wrong with a header libsndfile refused, in words, from its log and error code, or "" when
/// neither says anything we know.
std::string refusedHeaderReason(const std::string& log, int error, const std::string& detail) {
    if (error == SF_ERR_UNRECOGNISED_FORMAT) {
        return "it is not a sound file libsndfile knows (WAV, FLAC, Ogg, AIFF, ...): its first bytes match none of them";
    }
    if (const std::optional<long long> rate = leadingNumber(logField(log, "Sample Rate"))) {
        if (*rate == 0) return "its header gives a sample rate of 0 Hz";
        // The header holds the rate as an unsigned 32-bit number; libsndfile's int shows one of
        // 2^31 Hz or more as negative.
        if (*rate < 0) {
            return "its header gives a sample rate of " + std::to_string(*rate + (1LL << 32)) + " Hz, above the " +
                   std::to_string(std::numeric_limits<int>::max()) + " Hz a sound file's reader can hold";
        }
    }
    if (leadingNumber(logField(log, "Channels")) == 0LL) return "its header gives 0 channels";
    const std::optional<long long> bits = leadingNumber(logField(log, "Bit Width"));
    if (bits == 0LL) return "its header gives samples of 0 bits";
    const std::optional<std::string> format = logField(log, "Format");
    if (format && format->find("IEEE_FLOAT") != std::string::npos && bits && *bits != 32 && *bits != 64) {
        return "its header gives " + std::to_string(*bits) + "-bit float samples; float samples in a WAV file are 32 or 64 bits";
    }
    if (detail.find("unimplemented format") != std::string::npos && bits) {
        return "its header gives " + std::to_string(*bits) + "-bit samples (format " + format.value_or("?") + "), which libsndfile does not read";
    }
    if (detail.find("No 'data' chunk") != std::string::npos) return "it has no 'data' chunk (the part of a WAV file that holds the samples)";
    if (detail.find("Malformed 'fmt ' chunk") != std::string::npos) {
        return "its 'fmt ' chunk (the sample format) is malformed or names a format libsndfile does not know" +
               (format ? ": " + *format : std::string());
    }
    if (log.find("FLAC__STREAM_DECODER_ERROR_STATUS_BAD_METADATA") != std::string::npos) {
        return "its FLAC header (the metadata blocks after \"fLaC\") is damaged and does not decode";
    }
    if (detail.find("flac decoder") != std::string::npos) return "its FLAC stream does not decode (damaged, or cut short)";
    if (error == SF_ERR_SYSTEM) {
        // "System error : No such file or directory." Give the system's reason alone.
        const std::size_t colon = detail.find(" : ");
        std::string reason = colon == std::string::npos ? detail : detail.substr(colon + 3);
        if (reason.ends_with('.')) reason.pop_back();
        return reason;
    }
    return {};
}

/// Why a header libsndfile accepted cannot be trusted, or "". A WAV sample of 7 bits is stored in one
/// byte; when the block align (bytes per frame) says otherwise, the two disagree on the frame count,
/// and libsndfile silently goes by the bit width (8000 frames of 16-bit data read as 16 000). Samples
/// of whole bytes are left alone: their width alone gives the frame size, and so are compressed
/// encodings (G.721 ADPCM: 4-bit samples in blocks of 64 bytes), whose block align is no frame size.
std::string contradictoryHeaderReason(const std::string& log) {
    const std::optional<std::string> format = logField(log, "Format");
    if (format && format->find("WAVE_FORMAT_PCM") == std::string::npos && format->find("WAVE_FORMAT_EXTENSIBLE") == std::string::npos) return {};
    const std::optional<long long> bits = leadingNumber(logField(log, "Bit Width"));
    const std::optional<long long> channels = leadingNumber(logField(log, "Channels"));
    const std::optional<long long> blockAlign = leadingNumber(logField(log, "Block Align"));
    if (!bits || !channels || !blockAlign || *bits <= 0 || *bits % 8 == 0) return {};
    const long long frameBytes = *channels * ((*bits + 7) / 8);
    if (*blockAlign == frameBytes) return {};
    return "its header contradicts itself: " + std::to_string(*channels) + " channel(s) of " + std::to_string(*bits) + "-bit samples need " +
           std::to_string(frameBytes) + " byte(s) per frame but its block align says " + std::to_string(*blockAlign) +
           ", so the number of frames is a guess";
}

/// How often a wait for a named pipe's writer looks whether the run was asked to stop.
constexpr int kStopCheckMs = 50;

/// Opens the named pipe `path` for reading and waits until a program writes into it (or opens and
/// closes it): the open itself returns at once (O_NONBLOCK), the wait is a poll that looks for a stop
/// request between its timeouts. Returns a blocking descriptor. [any thread]
int openNamedPipe(const std::string& path) {
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (descriptor < 0) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    for (;;) {
        if (startsInterrupted()) {
            ::close(descriptor);
            throw SoundFileOpenInterrupted("stopped while waiting for a program to write into the named pipe '" + path + "'");
        }
        // Until a writer has come, Linux reports neither data nor a hang-up.
        pollfd waiting{descriptor, POLLIN, 0};
        const int ready = ::poll(&waiting, 1, kStopCheckMs);
        if (ready > 0) break;
        if (ready < 0 && errno != EINTR) {
            const int reason = errno;
            ::close(descriptor);
            throw std::runtime_error("cannot read '" + path + "': " + std::strerror(reason));
        }
    }
    ::fcntl(descriptor, F_SETFL, ::fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);
    return descriptor;
}

}  // namespace

SoundFileForReading openSoundFileForReading(const std::string& path) {
    namespace fs = std::filesystem;
    if (path == "-") {
        // Validation reads the header before the run and a loop seeks back: a pipe allows neither.
        throw std::runtime_error("cannot open '-': sound files are not read from standard input ('-' is standard output, for the sinks that "
                                 "write files); save the sound to a file and give its path");
    }
    std::error_code ignored;
    const fs::file_status status = fs::status(path, ignored);
    if (status.type() == fs::file_type::not_found) throw std::runtime_error("cannot open '" + path + "': no such file");
    if (fs::is_directory(status)) throw std::runtime_error("cannot open '" + path + "': it is a folder, not a sound file");
    if (fs::is_regular_file(status) && fs::file_size(path, ignored) == 0) {
        throw std::runtime_error("cannot open '" + path + "': it is empty (0 bytes), not a sound file: give the recording's own file");
    }
    SoundFileForReading opened;
    if (fs::is_fifo(status)) opened.file.reset(sf_open_fd(openNamedPipe(path), SFM_READ, &opened.info, SF_TRUE));
    else opened.file.reset(sf_open(path.c_str(), SFM_READ, &opened.info));
    if (!opened.file) {
        const int error = sf_error(nullptr);
        const std::string detail = sf_strerror(nullptr);
        const std::string reason = refusedHeaderReason(headerLog(nullptr), error, detail);
        throw std::runtime_error("cannot open '" + path + "': " + (reason.empty() ? "its header is damaged, or of a kind libsndfile does not read" : reason) +
                                 " (libsndfile: " + detail + ")");
    }
    opened.headerLog = headerLog(opened.file.get());
    if (const std::string reason = contradictoryHeaderReason(opened.headerLog); !reason.empty()) {
        throw std::runtime_error("cannot open '" + path + "': " + reason);
    }
    return opened;
}

std::string soundFileReadFailure(const std::string& path, std::int64_t atFrame, const std::string& detail) {
    const std::string where = "reading '" + path + "' failed at frame " + std::to_string(atFrame) + ": ";
    if (detail.find("flac decoder") != std::string::npos) {
        return where + "the FLAC stream is damaged there and does not decode (libsndfile: " + detail + ")";
    }
    return where + detail;
}

}  // namespace isochron
