// The telemetry watcher: a thread that keeps snapshots on time while one hook call keeps the engine
// thread (an operator that works for a second, a sink blocked on a pipe). The engine thread fills
// snapshots between calls, since most figures (queues, held state, latency histograms) are its own;
// the watcher wakes half a period after each due time and, when no snapshot was posted for that
// period, posts the last one again with the counts as they are now (PublishedCount: the engine
// thread publishes them without locks) and the node whose call is in progress, with how long the
// watcher has seen that call run.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/time/timebase.h"

namespace isochron {

class NodeContext;
struct CostClock;
class TelemetryCollector;

/// Runs while alive: from construction to destruction. [created and destroyed on the engine thread]
class TelemetryWatcher {
public:
    /// Watch `nodes` (their cost clocks say which is in a call) on the grid runStartNs + k * periodNs.
    TelemetryWatcher(TelemetryCollector& collector, const std::vector<NodeContext*>& nodes, TimeNs runStartNs, TimeNs periodNs);
    /// Stops and joins the thread at once (it waits on a condition, not a sleep).
    ~TelemetryWatcher();
    TelemetryWatcher(const TelemetryWatcher&) = delete;
    TelemetryWatcher& operator=(const TelemetryWatcher&) = delete;

private:
    void loop();
    /// Look at the call in progress now and update busyNode_ and busySinceNs_. [watcher thread]
    void observe(TimeNs now);

    TelemetryCollector& collector_;
    const std::vector<NodeContext*>& nodes_;
    std::vector<const CostClock*> clocks_;  // every clock the nodes use (a scheduler may give threads their own)
    TimeNs runStartNs_;
    TimeNs periodNs_;
    // The call seen at the last look: its node (index into nodes_, -1: none), that node's call count
    // then (a new call of the same node counts one more) and when the watcher first saw it.
    int busyNode_ = -1;
    std::uint64_t busyCalls_ = 0;
    TimeNs busySinceNs_ = 0;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace isochron
