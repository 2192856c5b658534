// How often a loop looks at the clock to see whether something periodic is due (a telemetry
// snapshot, the engine's checkpoint), when one turn may take nanoseconds (an item's hop) or seconds
// (a costly box, a whole round under overload). A fixed stride would either read the clock on every
// cheap hop or keep a snapshot waiting for dozens of slow turns: under overload the editor's plots
// froze for seconds. So the stride adapts: it doubles while reads come faster than 64 per period
// and falls back to 1 as soon as they come slower than 16 per period.
#pragma once

#include <algorithm>
#include <cstdint>

#include "engine/time/wall_clock.h"

namespace isochron {

/// Counts a loop's turns and says on which to read the clock. [one thread] [no allocation]
class ClockStride {
public:
    /// `periodNs` (> 0): how often the caller wants to act; reads come 16-64 times per period
    /// when turns are fast, and on every turn when a turn takes longer than period / 16.
    explicit ClockStride(TimeNs periodNs) : periodNs_(periodNs) {}
    void setPeriod(TimeNs periodNs) { periodNs_ = periodNs; }

    /// Count one turn; true when the clock was read on it, its time then in `now`.
    bool turn(TimeNs& now) {
        if (--turnsLeft_ > 0) return false;
        now = wallClockNs();
        const TimeNs sinceLastRead = now - lastReadNs_;
        if (sinceLastRead < periodNs_ / 64) stride_ = std::min(stride_ * 2, kMaxStride);
        else if (sinceLastRead > periodNs_ / 16) stride_ = 1;
        turnsLeft_ = stride_;
        lastReadNs_ = now;
        return true;
    }

private:
    static constexpr std::uint32_t kMaxStride = 64;
    TimeNs periodNs_;
    TimeNs lastReadNs_ = 0;
    std::uint32_t stride_ = 1;     // turns between reads
    std::uint32_t turnsLeft_ = 1;  // until the next read
};

}  // namespace isochron
