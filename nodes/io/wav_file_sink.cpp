#include "nodes/io/wav_file_sink.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/io/sound_file.h"

namespace isochron {
namespace {

/// Frames interleaved and handed to libsndfile per call.
constexpr std::int64_t kChunkFrames = 4096;
/// Segments one input may hold before its pending list grows (it grows while other inputs lag).
constexpr std::size_t kPendingReserve = 64;

/// The int16 code that libsndfile reads back as `sample`, rounded. libsndfile reads code / 32768;
/// its own float writer scales by 32767, which would bias every round trip, so we convert here.
std::int16_t toPcm16(float sample) {
    if (std::isnan(sample)) return 0;
    const double code = std::nearbyint(static_cast<double>(sample) * 32768.0);
    return static_cast<std::int16_t>(std::clamp(code, -32768.0, 32767.0));
}

/// What one input delivered that is not written yet.
struct InputChannel {
    std::vector<SigSeg<float>> pending;  ///< in index order, not overlapping; holes between them are gaps
    std::int64_t end = 0;                ///< one past the last sample index delivered
    bool delivered = false;              ///< at least one sample arrived
};

/// Interleaves input k into channel k of a WAV file. A frame is written once every input has
/// delivered it (so the result does not depend on arrival order); samples missing from an input
/// (a gap, a late start, an early end) are written as zeros, with a warning. The file grows under
/// `path.partial` and is renamed to `path` when closed.
class WavFileSink final : public Operator {
protected:
    void onActivate() override {
        path_ = params().getString("path");
        if (path_.empty()) throw OperatorError("no file given (parameter 'path' is empty)");
        partialPath_ = path_ + ".partial";
        pcm16_ = params().getString("format") == "pcm16";
        // The file itself is created at the first segment (its rate is not known before), so check
        // now that it can be.
        std::FILE* probe = std::fopen(partialPath_.c_str(), "wb");
        if (!probe) throw OperatorError("cannot write '" + partialPath_ + "': " + std::strerror(errno));
        std::fclose(probe);
        std::remove(partialPath_.c_str());

        inputs_.assign(static_cast<std::size_t>(inputCount()), {});
        for (auto& input : inputs_) input.pending.reserve(kPendingReserve);
        interleaved_.resize(static_cast<std::size_t>(kChunkFrames * inputCount()));
        if (pcm16_) pcm_.resize(interleaved_.size());
    }

    void process(int port, Item&& item) override {
        SigSeg<float> samples = item.takeSignal<float>();
        if (samples.empty()) return;
        if (!file_) {
            openFile(*samples.timebase());
        } else if (samples.timebase()->rateHz() != rateHz_) {
            throw OperatorError(inputPort(port).name + " is at " + std::to_string(samples.timebase()->rateHz()) +
                                " Hz but the file is at " + std::to_string(rateHz_) + " Hz");
        }
        InputChannel& input = inputs_[static_cast<std::size_t>(port)];
        if (input.delivered && samples.startIndex() < input.end) {
            warn(inputPort(port).name + ": samples before index " + std::to_string(input.end) +
                 " arrived again; ignored the repeat");
            if (samples.endIndex() <= input.end) return;
            samples = samples.subseg(input.end, samples.endIndex() - input.end);
        }
        if (input.delivered && samples.startIndex() > input.end) warnZeros(port, input.end, samples.startIndex());
        input.end = samples.endIndex();
        input.delivered = true;
        input.pending.push_back(std::move(samples));

        std::int64_t aligned = std::numeric_limits<std::int64_t>::max();
        for (const auto& in : inputs_) {
            if (!in.delivered) return;
            aligned = std::min(aligned, in.end);
        }
        writeUpTo(aligned);
    }

    void onFinish() override {
        if (!file_) {
            warn("no samples arrived: '" + path_ + "' was not written");
            return;
        }
        std::int64_t end = 0;
        for (const auto& input : inputs_) {
            if (input.delivered) end = std::max(end, input.end);
        }
        for (int port = 0; port < inputCount(); ++port) {
            const InputChannel& input = inputs_[static_cast<std::size_t>(port)];
            if (input.delivered && input.end < end) warnZeros(port, input.end, end);
        }
        writeUpTo(end);
        const std::string problem = closeFile();
        if (!problem.empty()) throw OperatorError(problem);
    }

    void onDeactivate() override {
        const std::string problem = closeFile();
        if (!problem.empty()) warn(problem);
    }

private:
    void openFile(const Timebase& timebase) {
        rateHz_ = timebase.rateHz();
        SF_INFO info{};
        info.samplerate = static_cast<int>(std::lround(rateHz_));
        info.channels = inputCount();
        info.format = SF_FORMAT_WAV | (pcm16_ ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT);
        if (info.samplerate != rateHz_) {
            warn("the stream's rate " + std::to_string(rateHz_) + " Hz is not a whole number; the file says " +
                 std::to_string(info.samplerate) + " Hz");
        }
        file_.reset(sf_open(partialPath_.c_str(), SFM_WRITE, &info));
        if (!file_) throw OperatorError("cannot write '" + partialPath_ + "': " + sf_strerror(nullptr));
    }

    /// Frame 0 of the file is the earliest first sample over the inputs that delivered any.
    void setOrigin() {
        written_ = std::numeric_limits<std::int64_t>::max();
        for (const auto& input : inputs_) {
            if (input.delivered) written_ = std::min(written_, input.pending.front().startIndex());
        }
        for (int port = 0; port < inputCount(); ++port) {
            const InputChannel& input = inputs_[static_cast<std::size_t>(port)];
            if (!input.delivered) warn(inputPort(port).name + " delivered no samples; its channel is silent");
            else if (input.pending.front().startIndex() > written_) warnZeros(port, written_, input.pending.front().startIndex());
        }
        originKnown_ = true;
    }

    /// Write frames [written_, end), zeros where an input has no samples, then forget them.
    void writeUpTo(std::int64_t end) {
        if (!originKnown_) setOrigin();
        while (written_ < end) {
            const std::int64_t frames = std::min(kChunkFrames, end - written_);
            interleave(written_, frames);
            writeChunk(frames);
            written_ += frames;
        }
        for (auto& input : inputs_) {
            auto& pending = input.pending;
            auto firstKept = std::find_if(pending.begin(), pending.end(),
                                          [&](const SigSeg<float>& s) { return s.endIndex() > written_; });
            pending.erase(pending.begin(), firstKept);
            if (!pending.empty() && pending.front().startIndex() < written_) {
                pending.front() = pending.front().subseg(written_, pending.front().endIndex() - written_);
            }
        }
    }

    /// Fill interleaved_ with frames [from, from + frames).
    void interleave(std::int64_t from, std::int64_t frames) {
        const int channels = inputCount();
        std::fill_n(interleaved_.begin(), frames * channels, 0.0f);
        for (int c = 0; c < channels; ++c) {
            for (const SigSeg<float>& segment : inputs_[static_cast<std::size_t>(c)].pending) {
                if (segment.startIndex() >= from + frames) break;
                const std::int64_t lo = std::max(from, segment.startIndex());
                const std::int64_t hi = std::min(from + frames, segment.endIndex());
                if (lo >= hi) continue;
                float* out = interleaved_.data() + (lo - from) * channels + c;
                segment.subseg(lo, hi - lo).forEachSpan([&](std::span<const float> run) {
                    for (float v : run) {
                        *out = v;
                        out += channels;
                    }
                });
            }
        }
    }

    void writeChunk(std::int64_t frames) {
        sf_count_t written;
        if (pcm16_) {
            const std::size_t count = static_cast<std::size_t>(frames * inputCount());
            std::transform(interleaved_.begin(), interleaved_.begin() + static_cast<std::ptrdiff_t>(count), pcm_.begin(), toPcm16);
            written = sf_writef_short(file_.get(), pcm_.data(), frames);
        } else {
            written = sf_writef_float(file_.get(), interleaved_.data(), frames);
        }
        if (written != frames) throw OperatorError("writing '" + partialPath_ + "' failed: " + sf_strerror(file_.get()));
    }

    void warnZeros(int port, std::int64_t from, std::int64_t to) {
        warn(inputPort(port).name + ": samples [" + std::to_string(from) + ", " + std::to_string(to) +
             ") are missing; wrote zeros");
    }

    /// Close the file (libsndfile completes the header) and give it its real name. Returns what went
    /// wrong, or "" (also when no file is open). The partial file stays behind only on failure.
    std::string closeFile() {
        if (!file_) return {};
        const int closed = sf_close(file_.release());
        if (closed != SF_ERR_NO_ERROR) return "closing '" + partialPath_ + "' failed: " + sf_error_number(closed);
        std::error_code error;
        std::filesystem::rename(partialPath_, path_, error);
        if (error) return "cannot rename '" + partialPath_ + "' to '" + path_ + "': " + error.message();
        return {};
    }

    std::string path_;
    std::string partialPath_;
    bool pcm16_ = true;
    SoundFile file_;
    double rateHz_ = 0;
    std::vector<InputChannel> inputs_;
    bool originKnown_ = false;
    std::int64_t written_ = 0;  // sample index of the next frame to write
    std::vector<float> interleaved_;
    std::vector<std::int16_t> pcm_;
};

}  // namespace

OperatorDescriptor wavFileSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.wav_file_sink";
    d.category = "io";
    d.summary = "Writes f32 signals as the channels of one WAV file";
    d.documentation =
        "Input k becomes channel k, aligned by sample index, at the rate of the first segment. Samples "
        "an input misses are written as zeros (with a warning). The file is written as 'path.partial' "
        "and renamed to 'path' when complete.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel k of the file", false, "channels"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "WAV file to write (replaced if it exists)"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "", "inputs, one per channel of the file"},
        ParamSpec{"format", ParamKind::Choice, std::string("pcm16"), {}, {}, "",
                  "sample format: 16-bit integer or 32-bit float", {"pcm16", "float32"}},
    };
    d.create = [] { return std::make_unique<WavFileSink>(); };
    return d;
}

}  // namespace isochron
