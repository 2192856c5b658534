// CaptureRing: the lock-free hand-over between an audio callback and the engine thread.
//
// A fixed number of slots, each holding one block of interleaved frames and where it belongs in
// the stream, circulate between exactly one producer (the audio callback) and one consumer (the
// engine). Memory is allocated once, in the constructor; neither side ever blocks, locks or
// allocates. When every slot is full the producer gets no slot and must drop its block (the
// capture stream accounts for it as a gap); blocks already in the ring are never overwritten.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/time/timebase.h"

namespace isochron {

/// One captured block in the ring. [written by the producer, read by the consumer]
struct CaptureSlot {
    std::int64_t firstFrame = 0;  ///< stream index of its first frame
    std::int64_t frames = 0;      ///< frames held, <= the ring's frames per slot
    TimeNs arrivalNs = 0;         ///< engine wall clock (Clock::wall) when the callback received it
    TimeNs deviceTimeNs = 0;      ///< the device stream clock at its first frame (ADC time); 0 if unknown
    float* samples = nullptr;     ///< frames x channels, interleaved
};

/// Single-producer single-consumer ring of capture blocks. [producer: callback; consumer: engine]
class CaptureRing {
public:
    /// At least `slots` (>= 2, rounded up to a power of two) slots of `framesPerSlot` frames of
    /// `channels` samples each. [setup, allocates]
    CaptureRing(std::size_t slots, std::int64_t framesPerSlot, int channels);
    CaptureRing(const CaptureRing&) = delete;
    CaptureRing& operator=(const CaptureRing&) = delete;

    // ---- Producer [the audio callback; no allocation, no lock] ----
    /// A free slot to fill, or null when the ring is full.
    CaptureSlot* beginWrite() noexcept;
    /// Hand the slot from beginWrite() to the consumer.
    void endWrite() noexcept;

    // ---- Consumer [engine thread; no allocation, no lock] ----
    /// The oldest filled slot, or null when none is waiting.
    const CaptureSlot* front() noexcept;
    /// Give the front slot back to the producer.
    void pop() noexcept;

    /// Slots for `bufferSeconds` of audio at `rateHz` in blocks of `framesPerSlot` (at least 2). [no allocation]
    static std::size_t slotsFor(double bufferSeconds, double rateHz, std::int64_t framesPerSlot);

    /// Most frames a slot holds.
    std::int64_t framesPerSlot() const noexcept { return framesPerSlot_; }
    /// Interleaved channels per frame.
    int channels() const noexcept { return channels_; }

private:
    std::vector<float> storage_;
    std::vector<CaptureSlot> slots_;
    std::int64_t framesPerSlot_;
    int channels_;
    std::size_t mask_;
    alignas(64) std::atomic<std::size_t> head_{0};  // next slot to consume
    alignas(64) std::atomic<std::size_t> tail_{0};  // next slot to fill
};

}  // namespace isochron
