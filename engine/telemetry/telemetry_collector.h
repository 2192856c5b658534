// The engine side of telemetry: refreshes each node's running estimates (cost per item,
// selectivity) and, when readers are attached, fills a snapshot for each of them 20-60 times a
// second, on a fixed grid of periods from the run's start. Runs on the engine thread between items; never blocks (see SnapshotChannel). Under mpirun a
// TelemetryRelay also sees each snapshot and merges the other ranks' figures into it.
// During a run a TelemetryWatcher thread posts the periods the engine thread misses because one
// hook call keeps it; each period's snapshot is posted once, by whichever thread claims it first.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/plugins/routed_items.h"
#include "engine/runtime/node_context.h"
#include "engine/telemetry/snapshot_channel.h"
#include "engine/telemetry/telemetry_relay.h"
#include "engine/telemetry/telemetry_watcher.h"
#include "engine/time/clock_stride.h"

namespace isochron {

/// Builds snapshots from the running nodes. [engine thread, except open() before the run and postLate()]
class TelemetryCollector {
public:
    explicit TelemetryCollector(const std::vector<NodeContext*>& nodes);
    ~TelemetryCollector();

    /// A new reader's channel. [before Engine::run(), any thread]
    std::shared_ptr<SnapshotChannel> open();
    bool hasReaders() const { return !channels_.empty() || relay_ != nullptr; }
    /// Show every snapshot to `relay` first (a run spread over ranks). At the end of the run the
    /// collector publishes once a period until the relay says every rank has ended (the only time
    /// it waits), each time with this rank's figures of its end. [before Engine::run(), any thread]
    void setRelay(std::shared_ptr<TelemetryRelay> relay) { relay_ = std::move(relay); }
    /// Snapshot rate (Hz, 1-1000; default 30).
    void setRate(double hz);

    /// Refresh estimates and publish if a period has passed since the last time. [no allocation
    /// once the snapshot buffers have been filled once]
    void tick(TimeNs now, TimeNs runStartNs, const char* state);
    /// tick() for the engine's scheduling loop, called once per round: it reads the clock only
    /// every few rounds (see ClockStride), since with one-sample items a clock read per round is a
    /// measurable share of the work. [no allocation, as tick()]
    void tickRound(TimeNs runStartNs, const char* state) { tickOn(rounds_, runStartNs, state); }
    /// tick() for a source's admission of each block: a round whose sources admit a backlog that
    /// runs for seconds (depth-first, every block processed as it is admitted) still publishes on
    /// time. Reads the clock as tickRound() does. [no allocation, as tick()]
    void tickAdmission(TimeNs runStartNs, const char* state) { tickOn(admissions_, runStartNs, state); }
    /// Refresh and publish now (start and end of a run).
    void publish(TimeNs now, TimeNs runStartNs, const char* state);
    /// When the next snapshot is due: runStartNs plus a whole number of periods, the first such
    /// time after the last snapshot (the engine sleeps no longer than this while it waits for its
    /// sources). [engine thread] [no allocation]
    TimeNs nextDueNs() const { return nextNs_; }

    /// Start the watcher thread for a run that started at `runStartNs` (after its first publish()),
    /// if there are readers and no relay (a relay exchanges snapshots on the engine thread only).
    /// [engine thread]
    void startWatch(TimeNs runStartNs);
    /// End the watcher thread (before the run's final publish()). [engine thread]
    void stopWatch() { watcher_.reset(); }
    /// The watcher's snapshot for grid period `period` (the one from runStart + period * period length),
    /// unless a snapshot was posted for that period already: the last one posted, with the node counts
    /// read now and `busyNode` (-1: none) in a call for at least `busySeconds`. [watcher thread] [no
    /// allocation once the buffers have been filled once]
    void postLate(std::int64_t period, TimeNs now, int busyNode, double busySeconds);

private:
    struct History {
        std::uint64_t itemsIn = 0, itemsOut = 0, samplesIn = 0;
        std::int64_t timedNs = 0;
        std::uint64_t timedCalls = 0;
    };
    void tickOn(ClockStride& stride, TimeNs runStartNs, const char* state) {
        TimeNs now = 0;
        if (stride.turn(now)) tick(now, runStartNs, state);
    }
    /// Set the next deadline: the first of runStartNs + k * period after `now`.
    void scheduleAfter(TimeNs now, TimeNs runStartNs);
    void refreshEstimates();
    /// Set the nodes' cost clocks' sampling period from the mean cost per timed invocation.
    void adaptSamplePeriod(double meanCostNs);
    /// `rateBase`: the outputs' counts `seconds` before `now`, over which their rates are taken.
    void fill(TelemetrySnapshot& snapshot, TimeNs now, TimeNs runStartNs, const char* state, double seconds, const std::vector<History>& rateBase);
    /// Fill one snapshot (through the relay, if any) and hand it to every reader; whether it is complete (see TelemetryRelay).
    bool post(TimeNs now, TimeNs runStartNs, const char* state, bool final);
    /// After a final post() that was not complete: this rank's figures of its end again, at `now`,
    /// through the relay (which adds what the other ranks reported since) to every reader; whether complete.
    bool postAgain(TimeNs now, TimeNs runStartNs);
    /// Hand latest_ to every reader; whether one took it. `last`: the run's last snapshot, which a
    /// reader that fell behind still gets (SnapshotChannel::beginLastWrite()).
    bool deliver(bool last = false);
    /// Whether the snapshot for the grid period holding `now` is this caller's to post (no other
    /// thread posted one for that period). Always true off the grid (runStartNs 0, or the final one).
    bool claimPeriod(TimeNs now, TimeNs runStartNs, bool final);

    std::vector<NodeContext*> nodes_;
    std::vector<const RoutedItems*> routes_;  // [node]: its plugin host's routed items (calls excludes them), else null
    std::vector<History> history_;         // at the previous tick
    std::vector<History> outputHistory_;   // at the previous snapshot (for rates)
    // At the snapshot before that: the last snapshot of a run may come a moment after the one
    // before (the run ended just after it), and its rate over that moment is a spike (one round's
    // items over a fraction of a millisecond: 4x the run's throughput). It is taken from here instead.
    std::vector<History> earlierOutputHistory_;
    TimeNs earlierSnapshotNs_ = 0;
    std::vector<std::shared_ptr<SnapshotChannel>> channels_;
    std::shared_ptr<TelemetryRelay> relay_;
    TelemetrySnapshot latest_;   // filled, then extended by the relay, then copied to each reader; the watcher's base
    TelemetrySnapshot ownEnd_;   // this rank's figures at the end of the run, before the relay extended them
    TimeNs periodNs_ = 33'333'333;
    TimeNs nextNs_ = 0;
    TimeNs lastSnapshotNs_ = 0;
    ClockStride rounds_{periodNs_};      // tickRound()'s clock reads
    ClockStride admissions_{periodNs_};  // tickAdmission()'s
    std::uint64_t sequence_ = 0;
    // One poster at a time (it guards latest_, sequence_ and the channels' writer side): the engine
    // thread only tries it, and skips a snapshot rather than wait while the watcher posts.
    std::mutex postMutex_;
    std::atomic<std::int64_t> postedPeriod_{-1};  // the latest grid period a snapshot was posted for
    std::unique_ptr<TelemetryWatcher> watcher_;
};

}  // namespace isochron
