// Telling late items from on-time ones without a division per item.
#pragma once

#include <cstdint>

#include "engine/items/item.h"

namespace isochron {

/// Whether an item is older than a progress time, compared in sample indices: the index threshold
/// is recomputed only when the item's timebase or the progress changes, so the common case is one
/// comparison (Item::time() would divide). One per input. [engine thread] [no allocation]
class LateCheck {
public:
    bool isLate(const Item& item, TimeNs progress) {
        const SampleRange range = item.range();
        if (range.timebase != timebase_ || progress != progress_) [[unlikely]] {
            if (!range.timebase) return false;
            timebase_ = range.timebase;
            progress_ = progress;
            threshold_ = range.timebase->firstIndexAtOrAfter(progress);
        }
        return range.start < threshold_;
    }

private:
    const Timebase* timebase_ = nullptr;
    TimeNs progress_ = kBeginningOfTime;
    std::int64_t threshold_ = 0;
};

}  // namespace isochron
