#include "engine/telemetry/snapshot_channel.h"

namespace isochron {

bool SnapshotChannel::Ring::push(TelemetrySnapshot* s) noexcept {
    const std::size_t t = tail.load(std::memory_order_relaxed);
    const std::size_t next = (t + 1) % slots.size();
    if (next == head.load(std::memory_order_acquire)) return false;
    slots[t] = s;
    tail.store(next, std::memory_order_release);
    return true;
}

TelemetrySnapshot* SnapshotChannel::Ring::pop() noexcept {
    const std::size_t h = head.load(std::memory_order_relaxed);
    if (h == tail.load(std::memory_order_acquire)) return nullptr;
    TelemetrySnapshot* s = slots[h];
    head.store((h + 1) % slots.size(), std::memory_order_release);
    return s;
}

SnapshotChannel::SnapshotChannel() : lastReserve_(std::make_unique<TelemetrySnapshot>()) {
    for (auto& buffer : storage_) {
        buffer = std::make_unique<TelemetrySnapshot>();
        free_.push(buffer.get());
    }
}

TelemetrySnapshot* SnapshotChannel::beginWrite() noexcept {
    TelemetrySnapshot* s = free_.pop();
    if (!s) dropped_.fetch_add(1, std::memory_order_relaxed);
    return s;
}

TelemetrySnapshot* SnapshotChannel::beginLastWrite() noexcept {
    if (TelemetrySnapshot* s = free_.pop()) return s;
    if (lastReserveFree_.exchange(false, std::memory_order_acquire)) return lastReserve_.get();
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
}

void SnapshotChannel::endWrite(TelemetrySnapshot* snapshot) noexcept { posted_.push(snapshot); }

const TelemetrySnapshot* SnapshotChannel::next() noexcept { return posted_.pop(); }

void SnapshotChannel::release(const TelemetrySnapshot* snapshot) noexcept {
    if (snapshot == lastReserve_.get()) {
        lastReserveFree_.store(true, std::memory_order_release);
        return;
    }
    free_.push(const_cast<TelemetrySnapshot*>(snapshot));
}

const TelemetrySnapshot* SnapshotChannel::newest() noexcept {
    const TelemetrySnapshot* newest = next();
    while (const TelemetrySnapshot* later = next()) {
        release(newest);
        newest = later;
    }
    return newest;
}

}  // namespace isochron
