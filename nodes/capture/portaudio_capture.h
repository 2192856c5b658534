// PortAudioCapture: one open PortAudio input stream feeding a CaptureRing.
//
// The callback runs on PortAudio's audio thread. It numbers frames from 0 (the stream index every
// segment carries), stamps each block with the engine wall clock and the device's stream clock
// (PortAudio's input ADC time), and copies it into the ring; it never blocks, locks or allocates.
// Frames never delivered still take their place in the numbering, so they show as a gap:
//  - an input overflow the device reports (paInputOverflow): the frames lost are estimated from how
//    far the stream clock moved past where the previous block ended (at least 1);
//  - a full ring (the engine fell behind): the whole block is dropped and counted.
// If the stream ends without stop() (the device vanished or failed), endedByItself() turns true.
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

/// What to capture. [value type]
struct CaptureStreamSettings {
    std::string device = "default";  ///< device name (see capture_devices.h for matching)
    std::string hostApi;             ///< host API name or part of it; "" = any
    int channels = 1;                ///< the device's first N input channels, >= 1
    double rateHz = 48000;           ///< frames per second
    std::int64_t blockFrames = 512;  ///< frames per callback and per ring slot, >= 1
    double latencySeconds = 0;       ///< suggested input latency; 0 = the device's low-latency default
    double bufferSeconds = 2;        ///< ring capacity in seconds of audio (at least two blocks)
};

/// An open input stream. [constructed, started and stopped on one thread (the engine's)]
class PortAudioCapture {
public:
    /// Find and open the device. Throws std::invalid_argument naming the device and the problem
    /// (not found, too few channels, rate unsupported) and std::runtime_error if PortAudio fails.
    explicit PortAudioCapture(const CaptureStreamSettings& settings);
    /// The device `settings` name, checked as the constructor checks it (found, enough channels, the
    /// rate supported) without opening a stream: for `isochron-run --check`. Throws as the constructor. [any thread]
    static CaptureDevice usableDevice(const CaptureStreamSettings& settings);
    /// Aborts the stream if running and closes it.
    ~PortAudioCapture();
    PortAudioCapture(const PortAudioCapture&) = delete;
    PortAudioCapture& operator=(const PortAudioCapture&) = delete;

    /// Stops and closes `capture` on a thread of its own: a device whose driver hangs blocks PortAudio's
    /// stop (it waits for its audio thread) and so may block only that thread, never the caller. [any thread]
    static void closeDetached(std::unique_ptr<PortAudioCapture> capture);

    /// Start capturing. Throws std::runtime_error with PortAudio's reason.
    void start();
    /// Stop capturing now (blocks already in the ring stay readable). Idempotent.
    void stop();

    /// The blocks captured so far. [consumer side: engine thread]
    CaptureRing& ring() { return ring_; }
    /// The device opened (for messages and the clock's name).
    const CaptureDevice& device() const { return device_; }
    /// Frames per second captured.
    double rateHz() const { return rateHz_; }
    /// The stream ended without stop(): the device vanished or failed. [any thread]
    bool endedByItself() const { return streamFinished_.load(std::memory_order_acquire) && !stopping_.load(std::memory_order_acquire); }
    /// Frames lost in input overflows the device reported (estimated). [any thread]
    std::int64_t overflowFrames() const { return overflowFrames_.load(std::memory_order_relaxed); }
    /// Frames dropped because the ring was full. [any thread]
    std::int64_t droppedFrames() const { return droppedFrames_.load(std::memory_order_relaxed); }

private:
    static int callback(const void* input, void* output, unsigned long frames, const PaStreamCallbackTimeInfo* time,
                        PaStreamCallbackFlags statusFlags, void* self);
    static void finished(void* self);
    /// The callback's work. [audio thread, no allocation]
    void onAudio(const float* input, std::int64_t frames, double adcSeconds, bool overflowed);
    /// Store `frames` frames from `input` at stream index nextFrame_, or count them as dropped.
    void storeBlock(const float* input, std::int64_t frames, TimeNs arrivalNs, TimeNs deviceTimeNs);

    std::shared_ptr<PortAudioLibrary> library_;
    CaptureDevice device_;
    double rateHz_;
    CaptureRing ring_;
    PaStream* stream_ = nullptr;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> streamFinished_{false};
    std::atomic<std::int64_t> overflowFrames_{0};
    std::atomic<std::int64_t> droppedFrames_{0};
    // Audio thread only.
    std::int64_t nextFrame_ = 0;
    double expectedNextSeconds_ = 0;  // when the next block should start (device clock, else wall clock)
    bool havePreviousBlock_ = false;
};

}  // namespace isochron
