// Bookkeeping shared by the operators that hold items back: an item's approximate memory, and a
// HeldState that remembers its peak.
#pragma once

#include <cstdint>

#include "engine/items/item.h"
#include "engine/operators/operator.h"

namespace isochron {

/// Approximate bytes an item keeps alive: the Item itself, its samples and its event record.
/// [any thread] [no allocation]
inline std::uint64_t approximateBytes(const Item& item) {
    std::uint64_t bytes = sizeof(Item);
    if (item.kind() == ItemKind::Signal || item.kind() == ItemKind::Frame) {
        bytes += static_cast<std::uint64_t>(item.segment().length()) * sampleSize(item.sampleType());
    }
    if (item.event()) bytes += sizeof(EventRecord);
    return bytes;
}

/// A HeldState kept up to date item by item. [engine thread] [no allocation]
class HeldStateCounter {
public:
    void add(std::uint64_t bytes) {
        ++state_.items;
        state_.bytes += bytes;
        if (state_.items > state_.peakItems) state_.peakItems = state_.items;
        if (state_.bytes > state_.peakBytes) state_.peakBytes = state_.bytes;
    }
    void remove(std::uint64_t bytes) {
        --state_.items;
        state_.bytes -= bytes;
    }
    const HeldState& state() const { return state_; }

private:
    HeldState state_;
};

}  // namespace isochron
