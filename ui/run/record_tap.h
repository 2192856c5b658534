// "Record this wire" on a running graph: a wire tap (engine/runtime/wire_tap.h) that hands each f32
// signal segment one output port sends (shared, not copied) to a LiveRecording's writer thread
// through a fixed ring, so the engine thread never waits for the disk nor allocates. A full ring (the
// writer fell that far behind) drops the segment: the archive then holds a gap there, never stitched.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/runtime/wire_tap.h"
#include "engine/signal/sigseg.h"

namespace isochron::ui {

/// Wait-free single-producer, single-consumer ring of the segments one port sends. [observe: engine
/// thread, no allocation; take: the one writer thread]
class RecordTap final : public WireTap {
public:
    /// Segments the ring holds at most (the writer takes them every few milliseconds).
    static constexpr std::size_t kSlots = 4096;

    RecordTap();
    void observe(const Item& item) noexcept override;
    /// The oldest segment not taken yet into `segment`; false when there is none. [writer thread]
    bool take(SigSeg<float>& segment);
    /// Segments dropped because the ring was full. [any thread]
    std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

private:
    std::vector<SigSeg<float>> slots_;
    std::atomic<std::size_t> written_{0};  // segments put, by the engine thread
    std::atomic<std::size_t> read_{0};     // segments taken, by the writer thread
    std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace isochron::ui
