// Each rank's throughput in telemetry across ranks (docs/telemetry-format.md, "ranks"), over a window
// of that rank's snapshots rather than one snapshot period: a rank whose data comes in blocks (4096
// samples about 12 times a second) seen at a higher snapshot rate (30 Hz) would otherwise read 0 in
// one period and twice its rate in the next. Once the rank's run has ended, its rates stay those of
// the window up to its last data, not what is left after it waited for the others.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "engine/telemetry/telemetry_snapshot.h"

namespace isochron::distributed {

/// The rates of every rank, kept from one snapshot to the next. [one thread: the one that merges the ranks' snapshots]
class RankRates {
public:
    /// The shortest window a rate is measured over, and the fewest changes of a rank's counts it holds.
    static constexpr double kWindowSeconds = 1.0;
    static constexpr std::size_t kWindowChanges = 4;

    /// Set `totals`' itemsPerSecond and samplesPerSecond (rank totals.rank's latest, its counts and
    /// elapsedSeconds as its snapshot says) to the rank's rates over its window: from the oldest
    /// count in the window to now while it runs, to its last change once its engineState is not
    /// "running". 0 until its counts have changed once.
    void smooth(RankTelemetry& totals);

private:
    struct Count {
        double seconds = 0;
        std::uint64_t items = 0, samples = 0;
    };
    std::vector<std::deque<Count>> counts_;  // by rank: the counts seen when they changed, oldest first
};

}  // namespace isochron::distributed
