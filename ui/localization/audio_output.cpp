#include "ui/localization/audio_output.h"

#include <portaudio.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "nodes/capture/portaudio_library.h"

namespace isochron::ui {

/// An open output stream and the clip it reads. The callback only reads `samples` and moves `next`.
struct AudioOutput::Stream {
    std::shared_ptr<PortAudioLibrary> library;
    PaStream* stream = nullptr;
    std::vector<float> samples;
    int channels = 1;  // the clip goes to each (many devices take no mono stream)
    std::atomic<std::size_t> next{0};

    static int callback(const void*, void* output, unsigned long frames, const PaStreamCallbackTimeInfo*, PaStreamCallbackFlags, void* user) {
        auto* self = static_cast<Stream*>(user);
        auto* out = static_cast<float*>(output);
        const std::size_t at = self->next.load(std::memory_order_relaxed);
        const std::size_t count = std::min<std::size_t>(frames, self->samples.size() - at);
        const auto channels = static_cast<std::size_t>(self->channels);
        for (std::size_t i = 0; i < frames; ++i) std::fill_n(out + i * channels, channels, i < count ? self->samples[at + i] : 0.0f);
        self->next.store(at + count, std::memory_order_relaxed);
        return at + count >= self->samples.size() ? paComplete : paContinue;
    }

    ~Stream() {
        if (!stream) return;
        Pa_AbortStream(stream);
        Pa_CloseStream(stream);
    }
};

AudioOutput::AudioOutput() = default;
AudioOutput::~AudioOutput() = default;

std::string AudioOutput::play(std::vector<float> samples, double rateHz) {
    stop();
    if (samples.empty() || rateHz <= 0) return "there is no audio for this event";
    auto stream = std::make_unique<Stream>();
    try {
        stream->library = PortAudioLibrary::acquire();
    } catch (const std::exception& e) {
        return std::string("audio output is unavailable: ") + e.what();
    }
    const PaDeviceIndex device = Pa_GetDefaultOutputDevice();
    if (device == paNoDevice) return "no audio output device: playback needs a sound card or an audio server";
    PaStreamParameters output{};
    output.device = device;
    stream->channels = std::clamp(Pa_GetDeviceInfo(device)->maxOutputChannels, 1, 2);
    output.channelCount = stream->channels;
    output.sampleFormat = paFloat32;
    output.suggestedLatency = Pa_GetDeviceInfo(device)->defaultHighOutputLatency;
    const std::string name = Pa_GetDeviceInfo(device)->name;
    stream->samples = std::move(samples);
    PaError error = Pa_OpenStream(&stream->stream, nullptr, &output, rateHz, paFramesPerBufferUnspecified, paClipOff, &Stream::callback, stream.get());
    if (error != paNoError) {
        stream->stream = nullptr;
        return "cannot play on output device '" + name + "': " + Pa_GetErrorText(error);
    }
    error = Pa_StartStream(stream->stream);
    if (error != paNoError) return "cannot start output device '" + name + "': " + Pa_GetErrorText(error);
    stream_ = std::move(stream);
    return {};
}

void AudioOutput::stop() { stream_.reset(); }

bool AudioOutput::playing() const { return stream_ && Pa_IsStreamActive(stream_->stream) == 1; }

}  // namespace isochron::ui
