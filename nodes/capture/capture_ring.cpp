#include "nodes/capture/capture_ring.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace isochron {

CaptureRing::CaptureRing(std::size_t slots, std::int64_t framesPerSlot, int channels)
    : framesPerSlot_(framesPerSlot), channels_(channels) {
    if (slots < 2 || framesPerSlot < 1 || channels < 1) {
        throw std::invalid_argument("a capture ring needs at least 2 slots of at least 1 frame of 1 channel");
    }
    slots = std::bit_ceil(slots);
    const auto samplesPerSlot = static_cast<std::size_t>(framesPerSlot) * static_cast<std::size_t>(channels);
    storage_.assign(slots * samplesPerSlot, 0.0f);
    slots_.resize(slots);
    for (std::size_t i = 0; i < slots; ++i) slots_[i].samples = storage_.data() + i * samplesPerSlot;
    mask_ = slots - 1;
}

std::size_t CaptureRing::slotsFor(double bufferSeconds, double rateHz, std::int64_t framesPerSlot) {
    const double blocks = std::ceil(bufferSeconds * rateHz / static_cast<double>(framesPerSlot));
    return static_cast<std::size_t>(std::max(2.0, blocks));
}

CaptureSlot* CaptureRing::beginWrite() noexcept {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_.load(std::memory_order_acquire) == slots_.size()) return nullptr;
    return &slots_[tail & mask_];
}

void CaptureRing::endWrite() noexcept { tail_.store(tail_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }

const CaptureSlot* CaptureRing::front() noexcept {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_.load(std::memory_order_acquire)) return nullptr;
    return &slots_[head & mask_];
}

void CaptureRing::pop() noexcept { head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }

}  // namespace isochron
