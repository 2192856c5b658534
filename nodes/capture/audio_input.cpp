#include "nodes/capture/audio_input.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/signal/sigseg.h"
#include "engine/time/wall_clock.h"
#include "nodes/capture/portaudio_capture.h"
#include "nodes/io/block_pacer.h"
#include "nodes/io/sound_file.h"
#include "nodes/io/sound_file_reading.h"
#include "nodes/spatial/channel_geometry.h"

namespace isochron {
namespace {

/// Copies channel `channel` of `frames` interleaved frames of `stride` channels to `out`.
void deinterleave(const float* interleaved, std::int64_t frames, int stride, int channel, float* out) {
    for (std::int64_t i = 0; i < frames; ++i) out[i] = interleaved[i * stride + channel];
}

/// The stream the parameters ask of the device, `channels` of them.
CaptureStreamSettings captureSettings(const ParamSet& params, int channels) {
    CaptureStreamSettings settings;
    settings.device = params.getString("device");
    settings.hostApi = params.getString("host_api");
    settings.channels = channels;
    settings.rateHz = params.getReal("rate");
    settings.blockFrames = params.getInt("block");
    settings.latencySeconds = params.getReal("latency");
    settings.bufferSeconds = params.getReal("buffer");
    return settings;
}

/// Whether a device that cannot be opened (`input` device_or_file) stops the node, or the recording
/// stands in for it: a device the user named is what they want captured, never replaced.
bool deviceRequired(const ParamSet& params) { return params.getString("input") == "device" || params.getString("device") != "default"; }

/// Why `input` (file or device_or_file) cannot start without a recording.
std::string recordingMissing(const std::string& input) { return "input '" + input + "' needs a recording (parameter 'file' is empty)"; }

/// The warning when the recording `file` stands in for the default device (`why` it cannot be opened).
std::string recordingInsteadWarning(const std::string& why, const std::string& file) {
    return why + "; playing the recording '" + file + "' instead of capturing (pick a device with device=NAME, see isochron-run --list-devices)";
}

TimeNs secondsToNs(double seconds) { return static_cast<TimeNs>(std::llround(seconds * 1e9)); }

/// Emits the first `channels` inputs of a device, or of a recording when asked to or when the device
/// is absent (input = device_or_file). Device frames come from PortAudioCapture's ring: a jump in
/// their stream index is a gap, emitted as such and reported as a warning. Sample index 0 is the
/// first captured frame; the timebase puts it at the device stream clock's time of that frame.
class AudioInput final : public Operator {
protected:
    void onActivate() override {
        channels_ = outputCount();
        const std::string& input = params().getString("input");
        const std::string& file = params().getString("file");
        if (input != "device" && file.empty()) throw OperatorError(recordingMissing(input));
        durationSeconds_ = params().getReal("duration");
        if (input == "file") {
            openRecording(file);
            notice("playing the recording '" + file + "' (input = file)");
            return;
        }
        try {
            openDevice();
            const CaptureDevice& device = device_->device();
            notice("capturing " + std::to_string(channels_) + " channel(s) from device '" + device.name + "' [" + device.hostApi + "] at " +
                   std::to_string(std::lround(params().getReal("rate"))) + " Hz");
        } catch (const std::exception& e) {
            if (deviceRequired(params())) throw OperatorError(e.what());
            warn(recordingInsteadWarning(e.what(), file));
            openRecording(file);
        }
    }

    bool followsWallClock() const override { return fromDevice_ || pacer_.paced(); }

    SourceStatus onProduce() override { return fromDevice_ ? produceFromDevice() : produceFromRecording(); }

    void onParameterChanged(std::string_view name) override {
        if (name == "pace" && !fromDevice_) pacer_.changePace(params().getReal("pace"));
    }

    void onDeactivate() override {
        device_.reset();
        recording_.reset();
        interleaved_ = {};
    }

private:
    /// The frames `duration` asks for at `rateHz`; 0 for no limit: duration 0, or more samples than a
    /// stream counts (kEndlessSamples), which llround could not represent.
    std::int64_t framesInDuration(double rateHz) const {
        const double frames = std::round(durationSeconds_ * rateHz);
        return durationSeconds_ > 0 && frames < kEndlessSamples ? static_cast<std::int64_t>(frames) : 0;
    }

    void openDevice() {
        const CaptureStreamSettings settings = captureSettings(params(), channels_);
        wallClockNs();  // calibrate the engine clock now, not in the first audio callback
        device_ = std::make_unique<PortAudioCapture>(settings);
        fromDevice_ = true;
        frameLimit_ = framesInDuration(settings.rateHz);
        stallTimeoutNs_ = secondsToNs(params().getReal("stall_timeout"));
        pollIntervalNs_ = std::max<TimeNs>(1'000'000, secondsToNs(static_cast<double>(settings.blockFrames) / settings.rateHz / 2));
    }

    void openRecording(const std::string& path) {
        SoundFileForReading opened;
        try {
            opened = openSoundFileForReading(path);
        } catch (const std::runtime_error& e) {
            throw OperatorError(std::string("the recording: ") + e.what());
        }
        recording_ = std::move(opened.file);
        const SF_INFO& info = opened.info;
        if (info.channels < channels_) {
            throw OperatorError("the recording '" + path + "' has " + std::to_string(info.channels) + " channel(s), fewer than the " +
                                std::to_string(channels_) + " asked for");
        }
        recordingPath_ = path;
        recordingChannels_ = info.channels;
        timebase_ = &Timebase::get(info.samplerate, 0, Clock::media());
        BlockPacerSettings settings;
        settings.rateHz = info.samplerate;
        settings.blockLength = params().getInt("block");
        settings.totalLength = info.frames;
        if (const std::int64_t limit = framesInDuration(info.samplerate); limit > 0) settings.totalLength = std::min<std::int64_t>(info.frames, limit);
        settings.pace = params().getReal("pace");
        settings.progressInterval = settings.blockLength;
        pacer_.configure(settings);
        interleaved_.resize(static_cast<std::size_t>(settings.blockLength * recordingChannels_));
        readPosition_ = 0;
    }

    SourceStatus produceFromDevice() {
        if (!started_) {
            device_->start();
            started_ = true;
            lastBlockNs_ = wallClockNs();
        }
        CaptureRing& ring = device_->ring();
        for (std::int64_t budget = productionBudget(); budget > 0 && admissionOpen(); --budget) {
            const CaptureSlot* slot = ring.front();
            if (!slot) break;
            if (!timebase_) timebase_ = &deviceTimebase(*slot);
            if (slot->firstFrame != nextFrame_ && (frameLimit_ == 0 || nextFrame_ < frameLimit_)) reportGap(slot->firstFrame);
            std::int64_t frames = slot->frames;
            if (frameLimit_ > 0) frames = std::clamp<std::int64_t>(frameLimit_ - slot->firstFrame, 0, frames);
            if (frames > 0) emitBlock(slot->firstFrame, frames, slot->samples, ring.channels(), slot->arrivalNs);
            nextFrame_ = slot->firstFrame + slot->frames;
            lastBlockNs_ = slot->arrivalNs;
            ring.pop();
            if (frameLimit_ > 0 && nextFrame_ >= frameLimit_) {
                device_->stop();
                return SourceStatus::finished();
            }
        }
        if (ring.front()) return SourceStatus::produced();
        const TimeNs now = wallClockNs();
        if (device_->endedByItself() && !ring.front()) {
            throw OperatorError("input device " + describeDevice(device_->device()) + " stopped delivering audio after " +
                                std::to_string(nextFrame_) + " frames: it was disconnected or failed");
        }
        if (now - lastBlockNs_ > stallTimeoutNs_) {
            const std::string message = "input device " + describeDevice(device_->device()) + " delivered no audio for " +
                                        std::to_string(static_cast<double>(now - lastBlockNs_) / 1e9) +
                                        " s (stall_timeout): it vanished or hangs";
            PortAudioCapture::closeDetached(std::move(device_));  // its driver may never return
            throw OperatorError(message);
        }
        return SourceStatus::waitUntil(now + pollIntervalNs_);
    }

    SourceStatus produceFromRecording() {
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) warn("fell behind the recording's pace: dropped " + std::to_string(dropped) + " frames");
        while (!pacer_.roundOver() && admissionOpen()) {
            const auto block = pacer_.nextBlock();
            if (!block) break;
            if (block->start != readPosition_ && sf_seek(recording_.get(), block->start, SEEK_SET) < 0) {
                throw OperatorError("cannot seek in the recording '" + recordingPath_ + "': " + sf_strerror(recording_.get()));
            }
            if (sf_readf_float(recording_.get(), interleaved_.data(), block->length) != block->length) {
                const char* reason = sf_error(recording_.get()) != SF_ERR_NO_ERROR ? sf_strerror(recording_.get())
                                                                                   : "the file is shorter than its header says";
                throw OperatorError(soundFileReadFailure(recordingPath_, block->start, reason));
            }
            readPosition_ = block->end();
            emitBlock(block->start, block->length, interleaved_.data(), recordingChannels_, block->arrivalNs);
        }
        return pacer_.endRound();
    }

    /// The timebase of the device's stream: index 0 at the stream clock's time of the first frame
    /// (the engine wall clock when the host API reports no stream time).
    const Timebase& deviceTimebase(const CaptureSlot& first) const {
        const double rate = device_->rateHz();
        const TimeNs sinceZero = static_cast<TimeNs>(std::llround(static_cast<double>(first.firstFrame) * 1e9 / rate));
        if (first.deviceTimeNs > 0) {
            const CaptureDevice& device = device_->device();
            return Timebase::get(rate, first.deviceTimeNs - sinceZero, Clock::named("portaudio:" + device.hostApi + ":" + device.name));
        }
        const TimeNs blockNs = static_cast<TimeNs>(std::llround(static_cast<double>(first.frames) * 1e9 / rate));
        return Timebase::get(rate, first.arrivalNs - blockNs - sinceZero, Clock::wall());
    }

    void reportGap(std::int64_t resumesAt) {
        warn("lost " + std::to_string(resumesAt - nextFrame_) + " frames per channel before frame " + std::to_string(resumesAt) +
             " (so far " + std::to_string(device_->overflowFrames()) + " in input overflows, " + std::to_string(device_->droppedFrames()) +
             " dropped while the engine fell behind)");
    }

    /// One segment per output from `frames` interleaved frames of `stride` channels, then progress.
    void emitBlock(std::int64_t firstFrame, std::int64_t frames, const float* interleaved, int stride, TimeNs arrivalNs) {
        for (int c = 0; c < channels_; ++c) {
            SigSeg<float> samples = SigSeg<float>::allocate(frames, firstFrame, timebase_);
            deinterleave(interleaved, frames, stride, c, samples.writable().data());
            Item item = Item::signal(std::move(samples));
            item.setArrivalNs(arrivalNs);
            emit(c, std::move(item));
        }
        emitProgress(timebase_->timeOf(firstFrame + frames));
    }

    int channels_ = 0;
    double durationSeconds_ = 0;
    const Timebase* timebase_ = nullptr;
    // Device.
    bool fromDevice_ = false;  // else the recording
    std::unique_ptr<PortAudioCapture> device_;
    bool started_ = false;
    std::int64_t nextFrame_ = 0;   // stream index the next block should start at
    std::int64_t frameLimit_ = 0;  // stop at this frame; 0 = never
    TimeNs lastBlockNs_ = 0;
    TimeNs stallTimeoutNs_ = 0;
    TimeNs pollIntervalNs_ = 0;
    // Recording.
    SoundFile recording_;
    std::string recordingPath_;
    int recordingChannels_ = 0;
    BlockPacer pacer_;
    std::vector<float> interleaved_;
    std::int64_t readPosition_ = 0;
};

}  // namespace

OperatorDescriptor audioInputDescriptor() {
    OperatorDescriptor d;
    d.typeName = "capture.audio_input";
    d.category = "capture";
    d.summary = "Captures a multichannel audio input (microphone array, sound card) as one f32 signal per channel";
    d.documentation =
        "Opens an input device through PortAudio (ALSA, JACK, or PulseAudio through ALSA's 'pulse' device) by name: the exact "
        "name, else the one device whose name contains it; 'default' is the system's default input. All outputs share one "
        "timebase: sample 0 is the first captured frame, at the device stream clock's time of that frame. Frames the device "
        "loses (input overflow) or that arrive while the engine is too far behind to take them (the ring of 'buffer' seconds "
        "is full) leave a gap in the sample indices and a warning; they are never stitched over. A missing device stops the "
        "graph at start with a message listing the devices there are; a device that disappears or stops delivering for "
        "stall_timeout stops this node with a message. With input = device_or_file a missing default device is replaced by "
        "the recording in 'file', played at 'pace' (a device named in 'device' that cannot be opened still stops the graph); "
        "input = file always plays the recording; with either, the recording's header is read at validation (isochron-run "
        "--check), so a missing or unreadable recording is reported there, on 'file'. --check also looks the device up (without "
        "opening it) and refuses or warns as the start would. See isochron-run --list-devices.";
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "input channel k", false, "channels"}};
    d.params = {
        ParamSpec{"device", ParamKind::String, std::string("default"), {}, {}, "",
                  "input device name, or a part of it that names one device; default = the system's default input"},
        ParamSpec{"host_api", ParamKind::String, std::string(), {}, {}, "", "audio system (ALSA, JACK, OSS) or a part of its name; empty = any"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 1.0, 256.0, "", "outputs: the device's first N input channels"},
        ParamSpec{"rate", ParamKind::Real, 48000.0, 1000.0, 384000.0, "Hz", "sampling rate to capture at"},
        ParamSpec{"block", ParamKind::Int, std::int64_t{512}, 16.0, 65536.0, "frames", "frames per captured block and per emitted segment"},
        ParamSpec{"latency", ParamKind::Real, 0.0, 0.0, 1.0, "s", "input latency asked of the device; 0 = its low-latency default"},
        ParamSpec{"buffer", ParamKind::Real, 2.0, 0.01, 60.0, "s", "audio held for the engine while it is busy; more is lost (a gap)"},
        ParamSpec{"duration", ParamKind::Real, 0.0, 0.0, {}, "s", "stop after this much audio; 0 = until the graph is stopped"},
        ParamSpec{"stall_timeout", ParamKind::Real, 2.0, 0.1, 600.0, "s", "fail when the device delivers nothing for this long"},
        ParamSpec{"input", ParamKind::Choice, std::string("device"), {}, {}, "",
                  "device: the device only; device_or_file: the recording when the default device is absent; file: always the recording",
                  {"device", "device_or_file", "file"}},
        ParamSpec{"file", ParamKind::Path, std::string(), {}, {}, "", "recording standing in for the device (WAV, FLAC, ...)"},
        ParamSpec{"pace", ParamKind::Real, 1.0, 0.0, {}, "x real time", "speed of the recording: 1 = real time, 0 = as fast as possible",
                  {}, true},
    };
    d.params.push_back(sourceGeometryParameter());
    d.channelsOut = placedSourceChannels;
    // The recording's header is read at validation (isochron-run --check) when it may be played; a
    // named pipe or a device is left to the run, as reading its header here would consume it.
    d.deriveParams = [](ParamSet& params) {
        const std::string& file = params.getString("file");
        if (params.getString("input") == "device" || file.empty()) return;
        std::error_code ignored;
        const std::filesystem::file_status status = std::filesystem::status(file, ignored);
        if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) && !std::filesystem::is_directory(status)) return;
        SoundFileForReading opened;
        try {
            opened = openSoundFileForReading(file);
        } catch (const std::runtime_error& e) {
            throw ParameterError("file", std::string("the recording: ") + e.what());
        }
        if (opened.info.channels < params.getInt("channels")) {
            throw ParameterError("file", "the recording '" + file + "' has " + std::to_string(opened.info.channels) +
                                             " channel(s), fewer than the " + std::to_string(params.getInt("channels")) + " asked for");
        }
    };
    // --check finds the device as the start does (without opening a stream): a missing one refuses
    // or, for a default device with a recording beside it, warns with the start's words.
    d.checkStart = [](const ParamSet& params) {
        const std::string& input = params.getString("input");
        if (input != "device" && params.getString("file").empty()) throw std::runtime_error(recordingMissing(input));
        if (input == "file") return std::vector<std::string>{};
        try {
            PortAudioCapture::usableDevice(captureSettings(params, static_cast<int>(params.getInt("channels"))));
        } catch (const std::exception& e) {
            if (deviceRequired(params)) throw;
            return std::vector<std::string>{recordingInsteadWarning(e.what(), params.getString("file"))};
        }
        return std::vector<std::string>{};
    };
    d.create = [] { return std::make_unique<AudioInput>(); };
    d.endlessBecause = [](const ParamSet& params) {
        const bool live = params.getString("input") != "file";  // a recording ends; a device captures until stopped
        if (!live) return std::string();
        if (params.getReal("duration") == 0) return std::string("a live input with duration 0");
        return endlessDurationBecause(params.getReal("duration"), params.getReal("rate"), 1);  // a device delivers in real time
    };
    return d;
}

}  // namespace isochron
