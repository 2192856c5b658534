// How fast a count grows (the samples or items a node sent), as the editor shows it on the wires and
// in the status bar's input. Snapshots come 30 times a second but a paced source sends a block at
// a time (a file source 4096 samples, every 0.26 s at 16 kHz), so a count over the last snapshot
// interval reads 0 or eight times the rate, and one over a fixed quarter second 0 or one block's worth.
// The rate is measured between the changes of the count instead: over the last kRateWindowSeconds,
// from the last change before that window to the newest, which is exact for equal blocks at a steady
// pace; a pause since the newest change longer than their usual spacing stretches it, and a window
// without change reads 0.
#pragma once

#include <cstdint>
#include <deque>

namespace isochron::ui {

/// The span a rate is measured over, s of run time.
inline constexpr double kRateWindowSeconds = 1.0;

/// The rate of one count, from its values at increasing run times. [ui thread]
class WindowedRate {
public:
    /// The count as of run time `t` (s, not before the last call's; the count does not decrease).
    void add(double t, std::uint64_t count);
    /// Per second, as the file comment says; 0 before the count changed twice.
    double perSecond() const;

private:
    struct Change {
        double t;
        std::uint64_t count;
    };
    std::deque<Change> changes_;  // the last at or before the window's start, then each one since
    double now_ = 0;
};

}  // namespace isochron::ui
