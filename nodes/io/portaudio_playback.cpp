#include "nodes/io/portaudio_playback.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "nodes/capture/portaudio_library.h"

namespace isochron {

PortAudioPlayback::PortAudioPlayback(const PlaybackStreamSettings& settings)
    : library_(PortAudioLibrary::acquire()),
      device_(findPlaybackDevice(listPlaybackDevices(), settings.device, settings.hostApi)),
      rateHz_(settings.rateHz),
      channels_(settings.channels),
      prefillFrames_(std::llround(settings.prefillSeconds * settings.rateHz)),
      ring_(CaptureRing::slotsFor(settings.bufferSeconds, settings.rateHz, settings.blockFrames), settings.blockFrames, settings.channels) {
    if (settings.channels > device_.outputChannels) {
        throw std::invalid_argument("output device " + describeDevice(device_) + " has only " + std::to_string(device_.outputChannels) +
                                    " output channel(s), " + std::to_string(settings.channels) + " asked for");
    }
    PaStreamParameters output{};
    output.device = device_.index;
    output.channelCount = settings.channels;
    output.sampleFormat = paFloat32;
    output.suggestedLatency = settings.latencySeconds > 0 ? settings.latencySeconds : device_.lowLatencySeconds;
    const PaError supported = Pa_IsFormatSupported(nullptr, &output, settings.rateHz);
    if (supported != paFormatIsSupported) {
        throw std::invalid_argument("output device " + describeDevice(device_) + " cannot play " + std::to_string(settings.channels) +
                                    " channel(s) at " + describeRate(settings.rateHz) + ": " + Pa_GetErrorText(supported));
    }
    // Priming through the callback: the device's first buffers hold queued audio, not extra silence.
    const PaError opened = Pa_OpenStream(&stream_, nullptr, &output, settings.rateHz, static_cast<unsigned long>(settings.blockFrames),
                                         paPrimeOutputBuffersUsingStreamCallback, &PortAudioPlayback::callback, this);
    if (opened != paNoError) {
        stream_ = nullptr;
        throw std::runtime_error("cannot open output device " + describeDevice(device_) + ": " + Pa_GetErrorText(opened));
    }
    Pa_SetStreamFinishedCallback(stream_, &PortAudioPlayback::finished);
}

PortAudioPlayback::~PortAudioPlayback() {
    if (!stream_) return;
    if (Pa_IsStreamStopped(stream_) == 0) Pa_AbortStream(stream_);
    Pa_CloseStream(stream_);
}

void PortAudioPlayback::closeDetached(std::unique_ptr<PortAudioPlayback> playback) {
    std::thread([closing = std::move(playback)]() mutable { closing.reset(); }).detach();
}

std::int64_t PortAudioPlayback::write(const float* interleaved, std::int64_t frames) {
    std::int64_t done = 0;
    while (done < frames) {
        if (!filling_) {
            filling_ = ring_.beginWrite();
            if (!filling_) break;  // full: the device is behind
            filling_->frames = 0;
        }
        const std::int64_t take = std::min(frames - done, ring_.framesPerSlot() - filling_->frames);
        std::memcpy(filling_->samples + filling_->frames * channels_, interleaved + done * channels_,
                    static_cast<std::size_t>(take * channels_) * sizeof(float));
        filling_->frames += take;
        done += take;
        if (filling_->frames == ring_.framesPerSlot()) publishPartialSlot();
    }
    queuedFrames_ += done;
    startIfDue();
    return done;
}

void PortAudioPlayback::drain() {
    if (filling_ && filling_->frames > 0) publishPartialSlot();
    draining_.store(true, std::memory_order_release);
    if (!started_) {
        prefillFrames_ = 0;
        startIfDue();
    }
}

bool PortAudioPlayback::waitUntilPlayed(double timeoutSeconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (!streamFinished_.load(std::memory_order_acquire)) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the device's own pace: no event to wait on
    }
    return true;
}

double PortAudioPlayback::queuedSeconds() const {
    return static_cast<double>(queuedFrames_ - playedFrames_.load(std::memory_order_relaxed)) / rateHz_;
}

void PortAudioPlayback::publishPartialSlot() {
    ring_.endWrite();
    filling_ = nullptr;
}

void PortAudioPlayback::startIfDue() {
    if (started_ || queuedFrames_ < prefillFrames_) return;
    started_ = true;
    const PaError error = Pa_StartStream(stream_);
    if (error != paNoError) throw std::runtime_error("cannot start playing to " + describeDevice(device_) + ": " + Pa_GetErrorText(error));
}

int PortAudioPlayback::callback(const void*, void* output, unsigned long frames, const PaStreamCallbackTimeInfo*, PaStreamCallbackFlags,
                                void* self) {
    auto& playback = *static_cast<PortAudioPlayback*>(self);
    return playback.onAudio(static_cast<float*>(output), static_cast<std::int64_t>(frames)) ? paContinue : paComplete;
}

void PortAudioPlayback::finished(void* self) {
    static_cast<PortAudioPlayback*>(self)->streamFinished_.store(true, std::memory_order_release);
}

bool PortAudioPlayback::onAudio(float* output, std::int64_t frames) {
    std::int64_t done = 0;
    while (done < frames) {
        const CaptureSlot* slot = ring_.front();
        if (!slot) break;
        const std::int64_t take = std::min(frames - done, slot->frames - readOffset_);
        std::memcpy(output + done * channels_, slot->samples + readOffset_ * channels_, static_cast<std::size_t>(take * channels_) * sizeof(float));
        done += take;
        readOffset_ += take;
        if (readOffset_ == slot->frames) {
            ring_.pop();
            readOffset_ = 0;
        }
    }
    playedFrames_.fetch_add(done, std::memory_order_relaxed);
    std::fill(output + done * channels_, output + frames * channels_, 0.0f);
    if (done == frames) return true;
    // The ring ran dry: the end of the audio, or the engine fell behind.
    if (draining_.load(std::memory_order_acquire) && !ring_.front()) return false;
    underflowFrames_.fetch_add(frames - done, std::memory_order_relaxed);
    return true;
}

}  // namespace isochron
