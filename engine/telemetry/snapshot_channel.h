// A wait-free stream of telemetry snapshots from the engine thread to one reader.
//
// A fixed set of snapshot buffers circulates through two single-producer/single-consumer rings:
// the engine takes a free buffer, fills it and posts it; the reader takes posted buffers in order and
// gives them back. Neither side ever waits or allocates once the buffers are sized. When the reader
// falls behind and no buffer is free, the engine skips that snapshot and counts it (dropped()); one
// more buffer is kept for the run's last snapshot ("finished", "stopped"), which a reader following
// the run must see even then, and a reader in a hurry (after a stop) may skip to it (newest()).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron {

/// One writer (the engine thread), one reader (e.g. the UI thread). [see each method]
class SnapshotChannel {
public:
    static constexpr std::size_t kBuffers = 16;

    SnapshotChannel();

    // ---- Writer side [engine thread] ----
    /// A free buffer to fill, or null when the reader holds them all (the snapshot is then skipped).
    TelemetrySnapshot* beginWrite() noexcept;
    /// beginWrite() for the run's last snapshot: when no buffer is free, the one kept for it (once).
    TelemetrySnapshot* beginLastWrite() noexcept;
    /// Post the buffer from beginWrite() or beginLastWrite(). [no allocation]
    void endWrite(TelemetrySnapshot* snapshot) noexcept;

    // ---- Reader side [reader thread] ----
    /// The oldest posted snapshot, or null if none is waiting. Hand it back with release().
    const TelemetrySnapshot* next() noexcept;
    /// Return a snapshot obtained from next() or newest().
    void release(const TelemetrySnapshot* snapshot) noexcept;
    /// The newest posted snapshot, the older ones waiting given back unread; null if none is waiting.
    const TelemetrySnapshot* newest() noexcept;

    /// Snapshots skipped because the reader held every buffer. [any thread]
    std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

private:
    // A bounded SPSC ring of buffer pointers, room for every buffer and the last snapshot's.
    struct Ring {
        std::array<TelemetrySnapshot*, kBuffers + 2> slots{};
        std::atomic<std::size_t> head{0};  // next to pop (consumer)
        std::atomic<std::size_t> tail{0};  // next to push (producer)
        bool push(TelemetrySnapshot* s) noexcept;
        TelemetrySnapshot* pop() noexcept;
    };

    std::array<std::unique_ptr<TelemetrySnapshot>, kBuffers> storage_;
    std::unique_ptr<TelemetrySnapshot> lastReserve_;  // beginLastWrite()'s when none of storage_ is free
    std::atomic<bool> lastReserveFree_{true};
    Ring free_;    // reader -> writer
    Ring posted_;  // writer -> reader
    std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace isochron
