#include "ui/run/probe_tap.h"

#include "engine/items/item.h"

namespace isochron::ui {

void ProbeTap::observe(const Item& item) noexcept {
    switch (item.kind()) {
        case ItemKind::Signal:
        case ItemKind::Frame: {
            if (item.sampleType() != SampleType::Float32) return;
            const auto values = item.signal<float>();
            const SampleRange range = item.range();
            ring_->describe(item.kind() == ItemKind::Frame ? static_cast<int>(values.length()) : 0,
                            range.timebase ? range.timebase->rateHz() : 0.0);
            values.forEachSpan([&](std::span<const float> run) { ring_->write(run.data(), run.size()); });
            return;
        }
        case ItemKind::Scalar: {
            const float value = static_cast<float>(item.value());
            ring_->describe(0, 0.0);
            ring_->write(&value, 1);
            return;
        }
        default: return;
    }
}

}  // namespace isochron::ui
