#include "engine/telemetry/telemetry_watcher.h"

#include <algorithm>
#include <chrono>

#include "engine/runtime/node_context.h"
#include "engine/telemetry/telemetry_collector.h"
#include "engine/time/wall_clock.h"

namespace isochron {

TelemetryWatcher::TelemetryWatcher(TelemetryCollector& collector, const std::vector<NodeContext*>& nodes, TimeNs runStartNs,
                                   TimeNs periodNs)
    : collector_(collector), nodes_(nodes), runStartNs_(runStartNs), periodNs_(periodNs) {
    for (const NodeContext* node : nodes_) {
        if (node->costClock && std::find(clocks_.begin(), clocks_.end(), node->costClock) == clocks_.end()) clocks_.push_back(node->costClock);
    }
    thread_ = std::thread([this] { loop(); });
}

TelemetryWatcher::~TelemetryWatcher() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void TelemetryWatcher::observe(TimeNs now) {
    const NodeContext* inCall = nullptr;
    for (const CostClock* clock : clocks_) {
        inCall = clock->inCall.load(std::memory_order_relaxed);
        if (inCall) break;
    }
    int index = -1;
    if (inCall) {
        // Node indices are positions in the engine's list; a collector built on another list looks the node up.
        const auto at = static_cast<std::size_t>(inCall->index);
        if (at < nodes_.size() && nodes_[at] == inCall) index = inCall->index;
        else if (auto it = std::find(nodes_.begin(), nodes_.end(), inCall); it != nodes_.end()) index = static_cast<int>(it - nodes_.begin());
    }
    const std::uint64_t calls = inCall ? inCall->callCount() : 0;
    if (index != busyNode_ || calls != busyCalls_) busySinceNs_ = now;
    busyNode_ = index;
    busyCalls_ = calls;
}

void TelemetryWatcher::loop() {
    std::int64_t period = 1;
    while (true) {
        // Half a period after the due time: an engine thread between calls has posted by then.
        const TimeNs lookAt = runStartNs_ + period * periodNs_ + periodNs_ / 2;
        TimeNs now = 0;
        {
            std::unique_lock lock(mutex_);
            while ((now = wallClockNs()) < lookAt) {
                if (wake_.wait_for(lock, std::chrono::nanoseconds(lookAt - now), [this] { return stop_; })) return;
            }
        }
        observe(now);
        period = (now - runStartNs_) / periodNs_;
        collector_.postLate(period, now, busyNode_, busyNode_ >= 0 ? static_cast<double>(now - busySinceNs_) / 1e9 : 0.0);
        ++period;
    }
}

}  // namespace isochron
