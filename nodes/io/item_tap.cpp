#include "nodes/io/item_tap.h"

namespace isochron {

ItemTapChannel::ItemTapChannel(std::size_t capacity) : slots_(capacity) {}

bool ItemTapChannel::push(int port, Item&& item) noexcept {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_.load(std::memory_order_acquire) == slots_.size()) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    TappedItem& slot = slots_[tail % slots_.size()];
    slot.port = port;
    slot.item = std::move(item);
    tail_.store(tail + 1, std::memory_order_release);
    return true;
}

std::optional<TappedItem> ItemTapChannel::pop() {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_.load(std::memory_order_acquire)) return std::nullopt;
    TappedItem tapped = std::move(slots_[head % slots_.size()]);
    head_.store(head + 1, std::memory_order_release);
    return tapped;
}

bool ItemTapChannel::drained() const noexcept {
    return closed_.load(std::memory_order_acquire) && head_.load(std::memory_order_relaxed) == tail_.load(std::memory_order_acquire);
}

void ItemTap::onActivate() { channel_ = std::make_shared<ItemTapChannel>(static_cast<std::size_t>(params().getInt("capacity"))); }

void ItemTap::process(int inputPort, Item&& item) {
    if (!channel_->push(inputPort, std::move(item)) && channel_->dropped() == 1) {
        warn("the reader fell behind: items are being dropped (see the channel's dropped count)");
    }
}

void ItemTap::onFinish() { channel_->close(); }

OperatorDescriptor itemTapDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.item_tap";
    d.category = "io";
    d.summary = "Hands every item to a reader outside the engine (the editor's views) without ever waiting for it";
    d.documentation =
        "A wait-free ring of 'capacity' items between the engine and one reader (e.g. the editor's localization view "
        "reading bearings, or its event list reading each event's audio from sync). When the reader falls behind, "
        "items are dropped and counted (one warning), never waited for. The reader gets the ring from the running "
        "node's operator (nodes/io/item_tap.h).";
    d.inputs = {PortSpec{"in", PortType::any(), "items of any kind", false, "inputs"}};
    d.params = {
        ParamSpec{"inputs", ParamKind::Int, std::int64_t{1}, 0.0, 256.0, "", "number of inputs; 0 = as many as the bus feeding them"},
        ParamSpec{"capacity", ParamKind::Int, std::int64_t{4096}, 1.0, 1e7, "items", "items held for the reader"},
    };
    d.create = [] { return std::make_unique<ItemTap>(); };
    return d;
}

}  // namespace isochron
