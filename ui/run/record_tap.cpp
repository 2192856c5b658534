#include "ui/run/record_tap.h"

#include "engine/items/item.h"

namespace isochron::ui {

RecordTap::RecordTap() : slots_(kSlots) {}

void RecordTap::observe(const Item& item) noexcept {
    if (item.kind() != ItemKind::Signal || item.sampleType() != SampleType::Float32) return;
    const std::size_t written = written_.load(std::memory_order_relaxed);
    if (written - read_.load(std::memory_order_acquire) >= kSlots) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    slots_[written % kSlots] = item.signal<float>();  // a reference to the samples; the slot was emptied by take()
    written_.store(written + 1, std::memory_order_release);
}

bool RecordTap::take(SigSeg<float>& segment) {
    const std::size_t read = read_.load(std::memory_order_relaxed);
    if (read == written_.load(std::memory_order_acquire)) return false;
    segment = std::move(slots_[read % kSlots]);  // leaves the slot empty: the samples are let go by the writer, not the engine thread
    read_.store(read + 1, std::memory_order_release);
    return true;
}

}  // namespace isochron::ui
