// A range of sample indices on a timebase: what a frame, scalar, time range or event describes.
#pragma once

#include <cstdint>

#include "engine/time/timebase.h"

namespace isochron {

/// Samples [start, start + length) of the stream on `timebase`. [value type]
struct SampleRange {
    const Timebase* timebase = nullptr;
    std::int64_t start = 0;
    std::int64_t length = 0;

    std::int64_t end() const { return start + length; }
    TimeNs startTime() const { return timebase->timeOf(start); }
    TimeNs endTime() const { return timebase->timeOf(end()); }
    bool operator==(const SampleRange&) const = default;
};

}  // namespace isochron
