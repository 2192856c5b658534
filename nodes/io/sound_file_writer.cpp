#include "nodes/io/sound_file_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/operators/operator_error_in_hook.h"

namespace isochron {
namespace {

/// Frames interleaved and handed to libsndfile per call.
constexpr std::int64_t kChunkFrames = 4096;

/// The int16 code that libsndfile reads back as `sample`, rounded. libsndfile reads code / 32768;
/// its own float writer scales by 32767, which would bias every round trip, so we convert here.
std::int16_t toPcm16(float sample) {
    if (std::isnan(sample)) return 0;
    const double code = std::nearbyint(static_cast<double>(sample) * 32768.0);
    return static_cast<std::int16_t>(std::clamp(code, -32768.0, 32767.0));
}

/// The int libsndfile stores as the 24-bit code that reads back as `sample` (code / 2^23), rounded:
/// libsndfile keeps an int's top 24 bits.
std::int32_t toPcm24(float sample) {
    if (std::isnan(sample)) return 0;
    const double code = std::clamp(std::nearbyint(static_cast<double>(sample) * 8388608.0), -8388608.0, 8388607.0);
    return static_cast<std::int32_t>(code) * 256;
}

/// The largest rate a sound file states: libsndfile holds it in an int.
constexpr double kLargestRateHz = std::numeric_limits<int>::max();

/// Whether a sound file can state `rateHz`: a whole number of Hz that fits libsndfile's int. A rate
/// rounded to one would make the file play at another speed (0.5 Hz written as 1 Hz plays twice as fast).
bool statableRate(double rateHz) { return rateHz >= 1.0 && rateHz <= kLargestRateHz && rateHz == std::floor(rateHz); }

/// `rateHz` in at most 10 significant digits ("3000000000", "1e+300", "44100.5").
std::string rateText(double rateHz) {
    std::ostringstream text;
    text << std::setprecision(10) << rateHz;
    return text.str();
}

/// The rates a sound file can state, for messages.
const std::string kStatableRates = "a whole number of Hz from 1 to " + std::to_string(std::numeric_limits<int>::max()) + " Hz";

/// Why a sound file cannot go to an output that cannot seek, after saying which output it is.
const std::string kNeedsSeeking =
    ": a sound file's header is completed by seeking back, so redirect standard output to a file or give a path to a file";

/// Whether the device or file `path` can seek, as a sound file's header needs (a pipe, a socket or a
/// terminal cannot; /dev/null can).
bool seekable(const std::string& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) return true;  // a file still to be created
    if (S_ISFIFO(status.st_mode) || S_ISSOCK(status.st_mode)) return false;
    if (!S_ISCHR(status.st_mode)) return true;
    const int descriptor = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (descriptor < 0) return true;  // opening it later says why
    const bool seeks = ::lseek(descriptor, 0, SEEK_CUR) >= 0;
    ::close(descriptor);
    return seeks;
}

/// Why standard output cannot take a sound file, or "" when it can: the header is completed by
/// seeking back to the file's start, which a pipe or terminal cannot do, which lands at the end of a
/// file opened for appending (`>>`), and which misses a header written after other bytes.
std::string standardOutputUnfitness() {
    const off_t position = ::lseek(STDOUT_FILENO, 0, SEEK_CUR);
    if (position < 0) return "standard output is a pipe or terminal here" + kNeedsSeeking;
    const int flags = ::fcntl(STDOUT_FILENO, F_GETFL);
    if (flags >= 0 && (flags & O_APPEND)) {
        return "standard output is opened for appending (>>) here: a sound file's header is completed by seeking back, which appending "
               "sends to the end of the file; redirect with > to a file of its own, or give a path to a file";
    }
    if (position > 0) {
        return "standard output is at byte " + std::to_string(position) +
               " of its file here (something was written there first): a sound file must start its file; redirect standard output to a "
               "file of its own, or give a path to a file";
    }
    return {};
}

/// Whether `path` names the file standard output goes to (a regular file: /dev/stdout, /dev/fd/1
/// or the redirection's own name).
bool isStandardOutputFile(const std::string& path) {
    struct stat named {}, output {};
    if (::stat(path.c_str(), &named) != 0 || ::fstat(STDOUT_FILENO, &output) != 0) return false;
    return S_ISREG(named.st_mode) && named.st_dev == output.st_dev && named.st_ino == output.st_ino;
}

/// libsndfile's text for `file`'s last error (or the last open's, for nullptr) without its
/// "System error : " lead-in and closing full stop: "No space left on device".
std::string soundFileError(SNDFILE* file) {
    std::string text = sf_strerror(file);
    if (text.starts_with("System error : ")) text.erase(0, 15);
    while (!text.empty() && (text.back() == '.' || text.back() == ' ')) text.pop_back();
    return text;
}

}  // namespace

void refuseUnstatableRates(const ParamSet&, const std::vector<UpstreamNode>& upstream) {
    if (!std::all_of(upstream.begin(), upstream.end(), [](const UpstreamNode& node) { return node.descriptor->isSource(); })) return;
    for (const UpstreamNode& source : upstream) {
        const ParamSpec* rate = source.descriptor->findParam("rate");
        if (!rate || rate->kind != ParamKind::Real || rate->unit != "Hz") continue;
        const double rateHz = source.params->getReal("rate");
        if (!statableRate(rateHz)) {
            throw std::runtime_error("node '" + *source.id + "' feeds it at " + rateText(rateHz) + " Hz (its parameter 'rate'), which a sound file cannot state (" +
                                     kStatableRates + "): give the source such a rate, or resample the stream to one (resample.to_rate) before the sink");
        }
    }
}

std::vector<std::string> refuseUnfitSoundOutput(const ParamSet& params) {
    const std::string& path = params.getString("path");
    if (path == "-" || isStandardOutputFile(path)) {
        if (const std::string unfit = standardOutputUnfitness(); !unfit.empty()) throw std::runtime_error("path '" + path + "': " + unfit);
    } else if (!path.empty() && !seekable(path)) {
        throw std::runtime_error("'" + path + "' is a pipe or terminal here" + kNeedsSeeking);
    }
    return {};
}

void SoundFileSink::onActivate() {
    path_ = params().getString("path");
    if (path_.empty()) throw OperatorError("no file given (parameter 'path' is empty)");
    try {
        format_ = chooseFormat_(params());
    } catch (const std::invalid_argument& e) {
        throw OperatorError(e.what());
    }
    if (path_ == "-") {
        if (const std::string unfit = standardOutputUnfitness(); !unfit.empty()) throw OperatorError("path '-': " + unfit);
        destination_ = Destination::StandardOutput;
        writingPath_ = "standard output";
    } else {
        if (isStandardOutputFile(path_)) {
            if (const std::string unfit = standardOutputUnfitness(); !unfit.empty()) throw OperatorError("path '" + path_ + "': " + unfit);
        }
        try {
            growing_.begin(path_);
        } catch (const std::runtime_error& e) {
            throw OperatorError(e.what());
        }
        path_ = growing_.target();
        // /dev/stdout into a pipe reached the pipe, and libsndfile failed at the header's seek back.
        if (growing_.writingPath() == path_ && !seekable(path_)) throw OperatorError("'" + path_ + "' is a pipe or terminal here" + kNeedsSeeking);
        destination_ = Destination::File;
        writingPath_ = growing_.writingPath();
    }

    inputs_.reset(inputCount());
    interleaved_.resize(static_cast<std::size_t>(kChunkFrames * inputCount()));
    if (format_.samples == SoundFileFormat::Samples::Pcm16) pcm16_.resize(interleaved_.size());
    if (format_.samples == SoundFileFormat::Samples::Pcm24) pcm24_.resize(interleaved_.size());
}

void SoundFileSink::process(int port, Item&& item) {
    SigSeg<float> samples = item.takeSignal<float>();
    if (samples.empty()) return;
    if (!file_) {
        openFile(port, *samples.timebase());
    } else if (samples.timebase()->rateHz() != rateHz_) {
        throw OperatorError(inputPort(port).name + " is at " + std::to_string(samples.timebase()->rateHz()) + " Hz but the file is at " +
                            std::to_string(rateHz_) + " Hz");
    }
    const std::int64_t start = samples.startIndex();
    const ChannelInterleaver::Added added = inputs_.add(port, std::move(samples));
    if (added.repeatedBefore >= 0) {
        warn(inputPort(port).name + ": samples before index " + std::to_string(added.repeatedBefore) + " arrived again; ignored the repeat");
    }
    if (added.gapFrom >= 0) warnZeros(port, added.gapFrom, start);
    if (inputs_.allDelivered()) writeUpTo(inputs_.alignedEnd());
}

void SoundFileSink::onFinish() {
    if (!file_) {
        warn("no samples arrived: '" + path_ + "' was not written");
        return;
    }
    const std::int64_t end = inputs_.latestEnd();
    for (int port = 0; port < inputCount(); ++port) {
        if (inputs_.delivered(port) && inputs_.end(port) < end) warnZeros(port, inputs_.end(port), end);
    }
    writeUpTo(end);
    warnUnrepresentable();
    const std::string problem = closeFile(Recording::Complete);
    if (!problem.empty()) throw OperatorError(problem);
}

void SoundFileSink::onDeactivate() {
    warnUnrepresentable();
    const std::string problem = closeFile(Recording::CutShort);
    if (!problem.empty()) warn(problem);
}

void SoundFileSink::openFile(int port, const Timebase& timebase) {
    rateHz_ = timebase.rateHz();
    // A sound file states its rate as a whole number of Hz that fits a 32-bit int (libsndfile's
    // SF_INFO): 3e9 Hz wrapped to a negative rate, 1e10 Hz to 1410065408, 0.5 Hz was rounded to 1.
    if (!statableRate(rateHz_)) {
        throw OperatorError(inputPort(port).name + " is at " + rateText(rateHz_) + " Hz, which a sound file cannot state (" + kStatableRates +
                            "): resample the stream to such a rate (resample.to_rate) before the sink; '" + path_ + "' was not written");
    }
    SF_INFO info{};
    info.samplerate = static_cast<int>(rateHz_);
    info.channels = inputCount();
    info.format = wavOrLarger(format_.libsndfileFormat);
    if (!sf_format_check(&info)) {
        throw OperatorError("this file format cannot hold " + std::to_string(info.channels) + " channel(s) at " + std::to_string(info.samplerate) +
                            " Hz (libsndfile refuses it): choose another format, or resample the stream (resample.to_rate) before the sink");
    }
    if (destination_ == Destination::StandardOutput) {
        std::fflush(stdout);  // what the runner printed comes first
        file_.reset(sf_open_fd(STDOUT_FILENO, SFM_WRITE, &info, SF_FALSE));
    } else {
        file_.reset(sf_open(writingPath_.c_str(), SFM_WRITE, &info));
    }
    if (!file_) throw OperatorErrorInHook("cannot write '" + shownPath() + "': " + soundFileError(nullptr));
    prepareForLargeAndRepeatableFile(file_.get(), info.format);
    if (format_.vbrQuality >= 0.0) {
        double quality = format_.vbrQuality;
        sf_command(file_.get(), SFC_SET_VBR_ENCODING_QUALITY, &quality, sizeof quality);
    }
}

/// Frame 0 of the file is the earliest first sample over the inputs that delivered any.
void SoundFileSink::setOrigin() {
    written_ = std::numeric_limits<std::int64_t>::max();
    for (int port = 0; port < inputCount(); ++port) {
        if (inputs_.delivered(port)) written_ = std::min(written_, inputs_.firstHeld(port));
    }
    for (int port = 0; port < inputCount(); ++port) {
        if (!inputs_.delivered(port)) warn(inputPort(port).name + " delivered no samples; its channel is silent");
        else if (inputs_.firstHeld(port) > written_) warnZeros(port, written_, inputs_.firstHeld(port));
    }
    originKnown_ = true;
}

/// Write frames [written_, end), zeros where an input has no samples, then forget them.
void SoundFileSink::writeUpTo(std::int64_t end) {
    if (!originKnown_) setOrigin();
    while (written_ < end) {
        const std::int64_t frames = std::min(kChunkFrames, end - written_);
        inputs_.interleave(written_, frames, interleaved_.data());
        writeChunk(frames);
        written_ += frames;
    }
    inputs_.release(written_);
}

void SoundFileSink::writeChunk(std::int64_t frames) {
    const auto count = static_cast<std::ptrdiff_t>(frames * inputCount());
    countUnrepresentable(count);
    sf_count_t written = 0;
    switch (format_.samples) {
        case SoundFileFormat::Samples::Pcm16:
            std::transform(interleaved_.begin(), interleaved_.begin() + count, pcm16_.begin(), toPcm16);
            written = sf_writef_short(file_.get(), pcm16_.data(), frames);
            break;
        case SoundFileFormat::Samples::Pcm24:
            std::transform(interleaved_.begin(), interleaved_.begin() + count, pcm24_.begin(), toPcm24);
            written = sf_writef_int(file_.get(), pcm24_.data(), frames);
            break;
        case SoundFileFormat::Samples::Float:
            written = sf_writef_float(file_.get(), interleaved_.data(), frames);
            break;
    }
    // Named by its own name: the partial file it grows under is renamed or kept when the sink ends,
    // and that warning says where. A write failure is the sink's, whatever call met it.
    if (written != frames) throw OperatorErrorInHook("writing '" + shownPath() + "' failed: " + soundFileError(file_.get()));
}

/// Count the first `count` interleaved samples that the file cannot hold as they are.
void SoundFileSink::countUnrepresentable(std::ptrdiff_t count) {
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        const float sample = interleaved_[static_cast<std::size_t>(i)];
        if (std::isnan(sample)) ++notANumber_;
        else if (std::isinf(sample)) ++infinite_;
        else if (std::abs(sample) > 1.0f) ++beyondFullScale_;
    }
}

/// One warning with the counts of samples written otherwise than they came, if any, then reset them.
void SoundFileSink::warnUnrepresentable() {
    if (notANumber_ == 0 && infinite_ == 0 && beyondFullScale_ == 0) return;
    std::string counts;
    const auto add = [&](std::int64_t count, const std::string& what) {
        if (count == 0) return;
        counts += (counts.empty() ? "" : ", ") + std::to_string(count) + (counts.empty() ? " samples were " : " were ") + what;
    };
    if (format_.samples == SoundFileFormat::Samples::Float) {
        add(notANumber_, "NaN");
        add(infinite_, "infinite");
        if (!counts.empty()) warn("'" + path_ + "': " + counts + " (stored as they are: a float file holds them, but most players and tools cannot use them)");
    } else {
        add(notANumber_, "NaN (written as 0)");
        add(infinite_ + beyondFullScale_, "beyond full scale, +-1 (clipped to it)");
        if (infinite_ > 0) counts += ", " + std::to_string(infinite_) + " of them infinite";
        warn("'" + path_ + "': " + counts);
    }
    notANumber_ = infinite_ = beyondFullScale_ = 0;
}

void SoundFileSink::warnZeros(int port, std::int64_t from, std::int64_t to) {
    warn(inputPort(port).name + ": samples [" + std::to_string(from) + ", " + std::to_string(to) + ") are missing; wrote zeros");
}

/// Close the file (libsndfile completes the header) and give it its real name (growing_file.h).
/// Returns what went wrong, or "". An unused partial file (no samples arrived) is removed.
std::string SoundFileSink::closeFile(Recording recording) {
    if (!file_) {
        growing_.discard();
        return {};
    }
    const int closed = sf_close(file_.release());
    if (closed != SF_ERR_NO_ERROR) return "closing '" + writingPath_ + "' failed: " + sf_error_number(closed);
    if (destination_ != Destination::File) return {};
    const GrowingFile::Ending ending = growing_.finish(recording == Recording::Complete, "the recording");
    if (!ending.warning.empty()) warn(ending.warning);
    return ending.problem;
}

std::vector<ParamSpec> soundFileSinkParameters(const std::string& pathDoc) {
    return {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", pathDoc},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "", "inputs, one per channel of the file"},
    };
}

}  // namespace isochron
