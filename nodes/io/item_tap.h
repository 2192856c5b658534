// io.item_tap: hands every item it receives to a reader outside the engine — the editor's views (the
// localization view's bearings, an event list's audio) — through a wait-free ring.
//
// The engine never waits for the reader: when the ring is full the item is dropped and counted, and
// the reader sees the count. Items keep their storage alive (reference counts), so a reader may hold
// a bearing's event record or an event's audio segments as long as it likes and release them on its
// own thread. The reader finds the ring through the running node:
//     auto* tap = dynamic_cast<ItemTap*>(engine.findNode("bearings")->op.get());
//     std::shared_ptr<ItemTapChannel> channel = tap->channel();
//     while (auto tapped = channel->pop()) show(tapped->port, tapped->item);
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/items/item.h"
#include "engine/operators/descriptor.h"
#include "engine/operators/operator.h"

namespace isochron {

/// One item as the tap received it. [value type]
struct TappedItem {
    int port = 0;  ///< which input (in<port>) it arrived on
    Item item;
};

/// A bounded single-producer single-consumer ring of items. [producer: engine thread; consumer: one reader thread]
class ItemTapChannel {
public:
    /// Room for `capacity` (>= 1) items. [allocates]
    explicit ItemTapChannel(std::size_t capacity);

    /// Engine side: queue the item, or drop it (counted) when the reader is `capacity` items behind.
    /// Returns whether it was queued. [no allocation]
    bool push(int port, Item&& item) noexcept;
    /// Engine side: no more items will come (the tap's inputs ended).
    void close() noexcept { closed_.store(true, std::memory_order_release); }

    /// Reader side: the oldest queued item, or nullopt if none is waiting. [no allocation]
    std::optional<TappedItem> pop();
    /// Whether the engine closed the channel and every item was popped. [reader thread]
    bool drained() const noexcept;
    /// Items dropped because the reader fell behind. [any thread]
    std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

private:
    std::vector<TappedItem> slots_;
    alignas(64) std::atomic<std::size_t> head_{0};  // next to pop
    alignas(64) std::atomic<std::size_t> tail_{0};  // next to push
    std::atomic<std::uint64_t> dropped_{0};
    std::atomic<bool> closed_{false};
};

/// The operator behind io.item_tap; the reader casts the node's operator to this. [engine thread]
class ItemTap final : public Operator {
public:
    /// The ring this tap fills (exists from activation on; outlives the engine if held). [any thread]
    std::shared_ptr<ItemTapChannel> channel() const { return channel_; }

protected:
    void onActivate() override;
    void process(int inputPort, Item&& item) override;
    void onFinish() override;

private:
    std::shared_ptr<ItemTapChannel> channel_;
};

OperatorDescriptor itemTapDescriptor();

}  // namespace isochron
