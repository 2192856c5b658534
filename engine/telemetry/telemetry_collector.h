// The engine side of telemetry: refreshes each node's running estimates (cost per item,
// selectivity) and, when readers are attached, fills a snapshot for each of them 20-60 times a
// second. Runs on the engine thread between items; never blocks (see SnapshotChannel).
#pragma once

#include <memory>
#include <vector>

#include "engine/runtime/node_context.h"
#include "engine/telemetry/snapshot_channel.h"

namespace isochron {

/// Builds snapshots from the running nodes. [engine thread, except open() before the run]
class TelemetryCollector {
public:
    explicit TelemetryCollector(const std::vector<NodeContext*>& nodes);

    /// A new reader's channel. [before Engine::run(), any thread]
    std::shared_ptr<SnapshotChannel> open();
    bool hasReaders() const { return !channels_.empty(); }
    /// Snapshot rate (Hz, 1-1000; default 30).
    void setRate(double hz);

    /// Refresh estimates and publish if a period has passed since the last time. [no allocation
    /// once the snapshot buffers have been filled once]
    void tick(TimeNs now, TimeNs runStartNs, const char* state);
    /// tick() for the engine's scheduling loop, called once per round: it reads the clock only
    /// every few rounds, since with one-sample items a clock read per round is a measurable share
    /// of the work. The stride doubles while checks come faster than 64 per snapshot period and
    /// drops back to 1 as soon as they come slower than 16. [no allocation, as tick()]
    void tickRound(TimeNs runStartNs, const char* state);
    /// Refresh and publish now (start and end of a run).
    void publish(TimeNs now, TimeNs runStartNs, const char* state);

private:
    struct History {
        std::uint64_t itemsIn = 0, itemsOut = 0, samplesIn = 0;
        std::int64_t timedNs = 0;
        std::uint64_t timedCalls = 0;
    };
    void refreshEstimates();
    /// Set the nodes' cost clocks' sampling period from the mean cost per timed invocation.
    void adaptSamplePeriod(double meanCostNs);
    void fill(TelemetrySnapshot& snapshot, TimeNs now, TimeNs runStartNs, const char* state, double seconds);

    std::vector<NodeContext*> nodes_;
    std::vector<History> history_;         // at the previous tick
    std::vector<History> outputHistory_;   // at the previous snapshot (for rates)
    std::vector<std::shared_ptr<SnapshotChannel>> channels_;
    TimeNs periodNs_ = 33'333'333;
    TimeNs nextNs_ = 0;
    TimeNs lastSnapshotNs_ = 0;
    std::uint32_t roundStride_ = 1;    // rounds between clock reads in tickRound()
    std::uint32_t roundsToCheck_ = 1;  // rounds left until the next one
    TimeNs lastRoundCheckNs_ = 0;
    std::uint64_t sequence_ = 0;
};

}  // namespace isochron
