// PortAudioPlayback: one open PortAudio output stream fed from the engine through a lock-free ring.
//
// The engine thread queues interleaved frames (write); PortAudio's audio thread takes them in its
// callback, which never blocks, locks or allocates. The ring holds `bufferSeconds` of audio: when
// the engine runs ahead of the device by more, the frames that do not fit are refused (the caller
// counts them as dropped); when the device runs ahead of the engine, the callback plays silence and
// counts the frames (underflow). Playback starts once `prefillSeconds` are queued (or at drain), so
// that a short stall at the start does not underflow. drain() says no more frames will come: the
// callback plays what is queued and then ends the stream.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <portaudio.h>

#include "nodes/capture/capture_devices.h"
#include "nodes/capture/capture_ring.h"

namespace isochron {

class PortAudioLibrary;

/// What to play to. [value type]
struct PlaybackStreamSettings {
    std::string device = "default";  ///< output device name (capture_devices.h explains matching)
    std::string hostApi;             ///< host API name or part of it; "" = any
    int channels = 1;                ///< the device's first N output channels, >= 1
    double rateHz = 48000;           ///< frames per second
    std::int64_t blockFrames = 512;  ///< frames per callback and per ring slot, >= 1
    double latencySeconds = 0;       ///< suggested output latency; 0 = the device's low-latency default
    double bufferSeconds = 2;        ///< ring capacity in seconds of audio (at least two blocks)
    double prefillSeconds = 0.1;     ///< audio queued before playback starts, <= bufferSeconds
};

/// An open output stream. [constructed, written and drained on one thread (the engine's)]
class PortAudioPlayback {
public:
    /// Find and open the device (not started). Throws std::invalid_argument naming the device and the
    /// problem (not found, too few channels, rate unsupported) and std::runtime_error if PortAudio fails.
    explicit PortAudioPlayback(const PlaybackStreamSettings& settings);
    /// Aborts the stream if running and closes it.
    ~PortAudioPlayback();
    PortAudioPlayback(const PortAudioPlayback&) = delete;
    PortAudioPlayback& operator=(const PortAudioPlayback&) = delete;

    /// Queue `frames` interleaved frames; returns how many fit (the rest are the caller's to drop).
    /// Starts playback once the prefill is queued. Throws std::runtime_error if the stream cannot start. [no allocation]
    std::int64_t write(const float* interleaved, std::int64_t frames);
    /// No more frames: play what is queued (starting now if not started), then end. [no allocation]
    void drain();
    /// Wait up to `timeoutSeconds` for the drained stream to end; true when it did. [blocks]
    bool waitUntilPlayed(double timeoutSeconds);
    /// Stops and closes `playback` on a thread of its own (a hung driver blocks only that thread). [any thread]
    static void closeDetached(std::unique_ptr<PortAudioPlayback> playback);

    /// The device opened.
    const CaptureDevice& device() const { return device_; }
    /// Frames of silence played because nothing was queued. [any thread]
    std::int64_t underflowFrames() const { return underflowFrames_.load(std::memory_order_relaxed); }
    /// Seconds of audio queued and not yet played (an estimate, for the drain timeout). [engine thread]
    double queuedSeconds() const;

private:
    static int callback(const void* input, void* output, unsigned long frames, const PaStreamCallbackTimeInfo* time,
                        PaStreamCallbackFlags statusFlags, void* self);
    static void finished(void* self);
    /// The callback's work. [audio thread, no allocation]
    bool onAudio(float* output, std::int64_t frames);
    void publishPartialSlot();
    void startIfDue();

    std::shared_ptr<PortAudioLibrary> library_;
    CaptureDevice device_;
    double rateHz_;
    int channels_;
    std::int64_t prefillFrames_;
    CaptureRing ring_;
    PaStream* stream_ = nullptr;
    bool started_ = false;
    std::atomic<bool> draining_{false};
    std::atomic<bool> streamFinished_{false};
    std::atomic<std::int64_t> underflowFrames_{0};
    std::atomic<std::int64_t> playedFrames_{0};
    // Engine thread only.
    CaptureSlot* filling_ = nullptr;  // the slot being filled, not yet published
    std::int64_t queuedFrames_ = 0;   // frames written so far
    // Audio thread only.
    std::int64_t readOffset_ = 0;     // frames of the front slot already played
};

}  // namespace isochron
