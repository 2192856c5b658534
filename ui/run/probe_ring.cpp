#include "ui/run/probe_ring.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace isochron::ui {

ProbeRing::ProbeRing(std::size_t capacity) : buffer_(capacity) {}

void ProbeRing::write(const float* values, std::size_t count) noexcept {
    std::uint64_t head = head_.load(std::memory_order_relaxed);
    const std::size_t size = buffer_.size();
    for (std::size_t i = 0; i < count; ++i) buffer_[(head + i) % size].store(values[i], std::memory_order_relaxed);
    head_.store(head + count, std::memory_order_release);
}

void ProbeRing::describe(int frameLength, double rateHz) noexcept {
    frameLength_.store(frameLength, std::memory_order_relaxed);
    rateHz_.store(rateHz, std::memory_order_relaxed);
}

std::size_t ProbeRing::readLatest(float* out, std::size_t count) const {
    const std::size_t size = buffer_.size();
    for (;;) {
        // At most half the ring, so the writer has the other half to fill while we copy.
        const std::uint64_t head = head_.load(std::memory_order_acquire);
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>({std::uint64_t{count}, head, std::uint64_t{size / 2}}));
        const std::uint64_t first = head - n;
        for (std::size_t i = 0; i < n; ++i) out[i] = buffer_[(first + i) % size].load(std::memory_order_relaxed);
        // The copy is good unless the writer came round to `first` meanwhile.
        if (head_.load(std::memory_order_acquire) - first <= size) return n;
    }
}

struct ProbeRegistry::State {
    mutable std::mutex mutex;
    std::map<std::string, std::shared_ptr<ProbeRing>> rings;
};

ProbeRegistry::ProbeRegistry() : state_(std::make_unique<State>()) {}

ProbeRegistry& ProbeRegistry::instance() {
    static ProbeRegistry registry;
    return registry;
}

void ProbeRegistry::add(const std::string& key, std::shared_ptr<ProbeRing> ring) {
    std::lock_guard lock(state_->mutex);
    state_->rings[key] = std::move(ring);
}

std::shared_ptr<ProbeRing> ProbeRegistry::find(const std::string& key) const {
    std::lock_guard lock(state_->mutex);
    auto it = state_->rings.find(key);
    return it == state_->rings.end() ? nullptr : it->second;
}

void ProbeRegistry::remove(const std::string& key) {
    std::lock_guard lock(state_->mutex);
    state_->rings.erase(key);
}

}  // namespace isochron::ui
