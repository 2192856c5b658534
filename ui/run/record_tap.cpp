#include "ui/run/record_tap.h"

namespace isochron::ui {

RecordTap::RecordTap() : slots_(kSlots) {}

void RecordTap::observe(const Item& item) noexcept {
    const ItemKind kind = item.kind();
    const bool recordable = kind == ItemKind::Signal ? item.sampleType() == SampleType::Float32 : kind == ItemKind::Scalar || kind == ItemKind::Event;
    if (!recordable) return;
    const std::size_t written = written_.load(std::memory_order_relaxed);
    if (written - read_.load(std::memory_order_acquire) >= kSlots) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    slots_[written % kSlots] = item;  // a reference to the samples or record; the slot was emptied by take()
    written_.store(written + 1, std::memory_order_release);
}

bool RecordTap::take(Item& item) {
    const std::size_t read = read_.load(std::memory_order_relaxed);
    if (read == written_.load(std::memory_order_acquire)) return false;
    // Leaves the slot empty: the samples and records are let go by the writer, not the engine thread.
    item = std::move(slots_[read % kSlots]);
    read_.store(read + 1, std::memory_order_release);
    return true;
}

}  // namespace isochron::ui
