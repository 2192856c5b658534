#include "nodes/io/audio_output.h"

#include <memory>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/io/channel_interleaver.h"
#include "nodes/io/portaudio_playback.h"

namespace isochron {
namespace {

/// Frames interleaved and handed to the device per write.
constexpr std::int64_t kChunkFrames = 1024;
/// How long, beyond the audio still queued, the end of a run waits for the device to play it.
constexpr double kDrainMarginSeconds = 2.0;

/// Interleaves input k into output channel k of the device, frame by frame once every input has
/// delivered it; what the device cannot take in time is dropped (counted), what it lacks is played
/// as silence (counted). At the end of the run it waits for the queued audio to be played.
class AudioOutput final : public Operator {
protected:
    void onActivate() override {
        settings_.device = params().getString("device");
        settings_.hostApi = params().getString("host_api");
        settings_.channels = inputCount();
        settings_.blockFrames = params().getInt("block");
        settings_.latencySeconds = params().getReal("latency");
        settings_.bufferSeconds = params().getReal("buffer");
        settings_.prefillSeconds = std::min(params().getReal("prefill"), settings_.bufferSeconds);
        silent_ = false;
        try {
            // Find the device now, so that a missing one stops the graph before it starts.
            findPlaybackDevice(listPlaybackDevices(), settings_.device, settings_.hostApi);
        } catch (const std::exception& e) {
            if (params().getString("missing_device") != "ignore") throw OperatorError(e.what());
            warn(std::string(e.what()) + ": nothing will be played (missing_device = ignore)");
            silent_ = true;
        }
        inputs_.reset(inputCount());
        interleaved_.resize(static_cast<std::size_t>(kChunkFrames * inputCount()));
        written_ = 0;
        originKnown_ = false;
        droppedFrames_ = 0;
        dropping_ = false;
    }

    void process(int port, Item&& item) override {
        SigSeg<float> samples = item.takeSignal<float>();
        if (samples.empty() || silent_) return;
        const double rate = samples.timebase()->rateHz();
        if (!device_) {
            settings_.rateHz = rate;
            try {
                device_ = std::make_unique<PortAudioPlayback>(settings_);
            } catch (const std::exception& e) {
                throw OperatorError(e.what());
            }
        } else if (rate != settings_.rateHz) {
            throw OperatorError(inputPort(port).name + " is at " + std::to_string(rate) + " Hz but the device plays at " +
                                std::to_string(settings_.rateHz) + " Hz");
        }
        inputs_.add(port, std::move(samples));
        if (inputs_.allDelivered()) playUpTo(inputs_.alignedEnd());
    }

    void onFinish() override {
        if (!device_) return;
        playUpTo(inputs_.latestEnd());
        device_->drain();
    }

    void onDeactivate() override {
        if (!device_) return;
        if (droppedFrames_ > 0) warn(std::to_string(droppedFrames_) + " frame(s) were dropped: the graph ran ahead of the device (pace its source)");
        if (!device_->waitUntilPlayed(device_->queuedSeconds() + kDrainMarginSeconds)) {
            warn("output device " + describeDevice(device_->device()) + " did not finish playing; closed it anyway");
            PortAudioPlayback::closeDetached(std::move(device_));
            return;
        }
        if (device_->underflowFrames() > 0) {
            warn(std::to_string(device_->underflowFrames()) + " frame(s) of silence were played while the graph fell behind the device");
        }
        device_.reset();
    }

private:
    void playUpTo(std::int64_t end) {
        if (!originKnown_) {
            written_ = inputs_.firstHeld(0);
            for (int port = 1; port < inputCount(); ++port) written_ = std::min(written_, inputs_.firstHeld(port));
            originKnown_ = true;
        }
        while (written_ < end) {
            const std::int64_t frames = std::min(kChunkFrames, end - written_);
            inputs_.interleave(written_, frames, interleaved_.data());
            std::int64_t accepted = 0;
            try {
                accepted = device_->write(interleaved_.data(), frames);
            } catch (const std::runtime_error& e) {
                throw OperatorError(e.what());
            }
            if (accepted < frames && !dropping_) warn("the output device is behind: dropping audio until it catches up");
            dropping_ = accepted < frames;
            droppedFrames_ += frames - accepted;
            written_ += frames;
        }
        inputs_.release(written_);
    }

    PlaybackStreamSettings settings_;
    std::unique_ptr<PortAudioPlayback> device_;
    ChannelInterleaver inputs_;
    std::vector<float> interleaved_;
    std::int64_t written_ = 0;  // index of the next frame to play
    bool originKnown_ = false;
    std::int64_t droppedFrames_ = 0;
    bool dropping_ = false;
    bool silent_ = false;  // no device and missing_device = ignore: the input is dropped
};

}  // namespace

OperatorDescriptor audioOutputDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.audio_output";
    d.category = "io";
    d.summary = "Plays f32 signals on an audio output device (PortAudio), to listen live";
    d.documentation =
        "Input k plays on the device's output channel k, aligned by sample index, at the rate of the first segment "
        "(the device must support it). Playback starts once 'prefill' seconds are queued; up to 'buffer' seconds wait "
        "for the device. A graph faster than real time (an unpaced file source) overfills it and audio is dropped, "
        "with a warning: pace the source (pace 1). A graph slower than the device leaves silence, counted and reported. "
        "At the end of the run the node waits until the queued audio has been played. The device is matched by name as "
        "capture.audio_input matches inputs ('default' = the system's default output); without it the graph does not "
        "start, unless missing_device is ignore (a warning, and the input is dropped).";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "output channel k", false, "channels"}};
    d.params = {
        ParamSpec{"device", ParamKind::String, std::string("default"), {}, {}, "",
                  "output device name, or a part of it that names one device; default = the system's default output"},
        ParamSpec{"host_api", ParamKind::String, std::string(), {}, {}, "", "audio system (ALSA, JACK, OSS) or a part of its name; empty = any"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 1.0, 256.0, "", "inputs: the device's first N output channels"},
        ParamSpec{"block", ParamKind::Int, std::int64_t{512}, 16.0, 65536.0, "frames", "frames per device callback"},
        ParamSpec{"latency", ParamKind::Real, 0.0, 0.0, 1.0, "s", "output latency asked of the device; 0 = its low-latency default"},
        ParamSpec{"buffer", ParamKind::Real, 2.0, 0.01, 60.0, "s", "audio queued for the device at most; more is dropped"},
        ParamSpec{"prefill", ParamKind::Real, 0.1, 0.0, 60.0, "s", "audio queued before playback starts (at most 'buffer')"},
        ParamSpec{"missing_device", ParamKind::Choice, std::string("fail"), {}, {}, "",
                  "no such device: fail stops the graph before it starts; ignore warns and plays nothing (headless machines)",
                  {"fail", "ignore"}},
    };
    d.create = [] { return std::make_unique<AudioOutput>(); };
    return d;
}

}  // namespace isochron
