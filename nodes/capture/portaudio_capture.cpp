#include "nodes/capture/portaudio_capture.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "engine/time/wall_clock.h"
#include "nodes/capture/portaudio_library.h"

namespace isochron {
namespace {

/// The stream `settings` ask of `device`: its first channels as 32-bit floats.
PaStreamParameters streamParameters(const CaptureDevice& device, const CaptureStreamSettings& settings) {
    PaStreamParameters input{};
    input.device = device.index;
    input.channelCount = settings.channels;
    input.sampleFormat = paFloat32;
    input.suggestedLatency = settings.latencySeconds > 0 ? settings.latencySeconds : device.lowLatencySeconds;
    return input;
}

}  // namespace

CaptureDevice PortAudioCapture::usableDevice(const CaptureStreamSettings& settings) {
    const std::shared_ptr<PortAudioLibrary> library = PortAudioLibrary::acquire();
    const CaptureDevice device = findCaptureDevice(listCaptureDevices(), settings.device, settings.hostApi);
    if (settings.channels > device.inputChannels) {
        throw std::invalid_argument("input device " + describeDevice(device) + " has only " + std::to_string(device.inputChannels) +
                                    " input channel(s), " + std::to_string(settings.channels) + " asked for");
    }
    const PaStreamParameters input = streamParameters(device, settings);
    const PaError supported = Pa_IsFormatSupported(&input, nullptr, settings.rateHz);
    if (supported != paFormatIsSupported) {
        throw std::invalid_argument("input device " + describeDevice(device) + " cannot capture " + std::to_string(settings.channels) +
                                    " channel(s) at " + describeRate(settings.rateHz) + ": " + Pa_GetErrorText(supported));
    }
    return device;
}

PortAudioCapture::PortAudioCapture(const CaptureStreamSettings& settings)
    : library_(PortAudioLibrary::acquire()),
      device_(usableDevice(settings)),
      rateHz_(settings.rateHz),
      ring_(CaptureRing::slotsFor(settings.bufferSeconds, settings.rateHz, settings.blockFrames), settings.blockFrames, settings.channels) {
    const PaStreamParameters input = streamParameters(device_, settings);
    const PaError opened = Pa_OpenStream(&stream_, &input, nullptr, settings.rateHz, static_cast<unsigned long>(settings.blockFrames),
                                         paNoFlag, &PortAudioCapture::callback, this);
    if (opened != paNoError) {
        stream_ = nullptr;
        throw std::runtime_error("cannot open input device " + describeDevice(device_) + ": " + Pa_GetErrorText(opened));
    }
    Pa_SetStreamFinishedCallback(stream_, &PortAudioCapture::finished);
}

PortAudioCapture::~PortAudioCapture() {
    if (!stream_) return;
    stop();
    Pa_CloseStream(stream_);
}

void PortAudioCapture::closeDetached(std::unique_ptr<PortAudioCapture> capture) {
    std::thread([closing = std::move(capture)]() mutable { closing.reset(); }).detach();
}

void PortAudioCapture::start() {
    const PaError error = Pa_StartStream(stream_);
    if (error != paNoError) {
        throw std::runtime_error("cannot start capturing from " + describeDevice(device_) + ": " + Pa_GetErrorText(error));
    }
}

void PortAudioCapture::stop() {
    if (stopping_.exchange(true, std::memory_order_acq_rel)) return;
    if (Pa_IsStreamStopped(stream_) == 0) Pa_AbortStream(stream_);
}

int PortAudioCapture::callback(const void* input, void*, unsigned long frames, const PaStreamCallbackTimeInfo* time,
                               PaStreamCallbackFlags statusFlags, void* self) {
    auto& capture = *static_cast<PortAudioCapture*>(self);
    capture.onAudio(static_cast<const float*>(input), static_cast<std::int64_t>(frames), time ? time->inputBufferAdcTime : 0.0,
                    (statusFlags & paInputOverflow) != 0);
    return paContinue;
}

void PortAudioCapture::finished(void* self) { static_cast<PortAudioCapture*>(self)->streamFinished_.store(true, std::memory_order_release); }

void PortAudioCapture::onAudio(const float* input, std::int64_t frames, double adcSeconds, bool overflowed) {
    const TimeNs arrivalNs = wallClockNs();
    const bool deviceClock = adcSeconds > 0;
    const double nowSeconds = deviceClock ? adcSeconds : static_cast<double>(arrivalNs) * 1e-9 - static_cast<double>(frames) / rateHz_;
    if (overflowed && havePreviousBlock_) {
        const auto lost = std::max<std::int64_t>(1, std::llround((nowSeconds - expectedNextSeconds_) * rateHz_));
        overflowFrames_.fetch_add(lost, std::memory_order_relaxed);
        nextFrame_ += lost;
    }
    havePreviousBlock_ = true;
    expectedNextSeconds_ = nowSeconds + static_cast<double>(frames) / rateHz_;
    const TimeNs deviceTimeNs = deviceClock ? std::llround(adcSeconds * 1e9) : 0;
    // PortAudio delivers exactly the block size asked for; split anything longer so it still fits.
    for (std::int64_t done = 0; done < frames;) {
        const std::int64_t take = std::min(frames - done, ring_.framesPerSlot());
        const TimeNs pieceTimeNs = deviceClock ? deviceTimeNs + std::llround(static_cast<double>(done) * 1e9 / rateHz_) : 0;
        storeBlock(input ? input + done * ring_.channels() : nullptr, take, arrivalNs, pieceTimeNs);
        done += take;
    }
}

void PortAudioCapture::storeBlock(const float* input, std::int64_t frames, TimeNs arrivalNs, TimeNs deviceTimeNs) {
    CaptureSlot* slot = ring_.beginWrite();
    if (!slot) {
        droppedFrames_.fetch_add(frames, std::memory_order_relaxed);
        nextFrame_ += frames;
        return;
    }
    const auto samples = static_cast<std::size_t>(frames * ring_.channels());
    if (input) std::memcpy(slot->samples, input, samples * sizeof(float));
    else std::fill_n(slot->samples, samples, 0.0f);
    slot->firstFrame = nextFrame_;
    slot->frames = frames;
    slot->arrivalNs = arrivalNs;
    slot->deviceTimeNs = deviceTimeNs;
    ring_.endWrite();
    nextFrame_ += frames;
}

}  // namespace isochron
