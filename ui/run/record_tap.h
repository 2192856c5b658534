// "Record this wire" on a running graph: a wire tap (engine/runtime/wire_tap.h) that hands each f32
// signal segment, scalar or event one output port sends (shared, not copied: samples and event records
// are reference counted) to a LiveRecording's writer thread through a fixed ring, so the engine thread
// never waits for the disk nor allocates. A full ring (the writer fell that far behind) drops the
// item: the archive then holds a gap there (signals) or misses the item (scalars, events).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/items/item.h"
#include "engine/runtime/wire_tap.h"

namespace isochron::ui {

/// Wait-free single-producer, single-consumer ring of the recordable items one port sends. [observe:
/// engine thread, no allocation; take: the one writer thread]
class RecordTap final : public WireTap {
public:
    /// Items the ring holds at most (the writer takes them every few milliseconds).
    static constexpr std::size_t kSlots = 4096;

    RecordTap();
    /// Keeps f32 signal segments, scalars and events; lets other items (progress) pass.
    void observe(const Item& item) noexcept override;
    /// The oldest item not taken yet into `item`; false when there is none. [writer thread]
    bool take(Item& item);
    /// Items dropped because the ring was full. [any thread]
    std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

private:
    std::vector<Item> slots_;
    std::atomic<std::size_t> written_{0};  // items put, by the engine thread
    std::atomic<std::size_t> read_{0};     // items taken, by the writer thread
    std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace isochron::ui
