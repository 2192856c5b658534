// Running an Aurora workload under one scheduler and measuring what the paper plots: latency and
// QoS at the outputs, the CPU the engine spent beyond the boxes' own work (overhead), and, on
// request, the items queued over time (memory), read through the telemetry stream.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/graph/graph_spec.h"
#include "engine/runtime/run_summary.h"
#include "engine/schedulers/scheduler.h"

namespace isochron::bench {

/// How to run. [value type]
struct WorkloadRunOptions {
    double telemetryHz = 0;       ///< > 0: read telemetry at this rate and record queued items
    double timeoutSeconds = 120;  ///< stop the run after this long (a saturated run drains slowly)
};

/// Items queued in the whole graph at one telemetry snapshot. [value type]
struct QueueSample {
    double elapsedSeconds = 0;  ///< since the run started
    std::uint64_t items = 0;
};

/// What one run measured. [value type]
struct WorkloadRun {
    bool completed = false;     ///< the input was drained (not stopped by the timeout)
    double wallSeconds = 0;     ///< Engine::run(), start to drained
    double cpuSeconds = 0;      ///< CPU time of the engine thread over the run
    double workSeconds = 0;     ///< the boxes' busy work as timed while it ran (engine thread)
    double nominalWorkSeconds = 0;  ///< the same as set: items processed x cost_us, summed
    std::uint64_t boxItems = 0; ///< items the universal boxes processed
    std::uint64_t inputItems = 0;
    std::uint64_t outputItems = 0;
    double avgLatencyMs = 0;    ///< over every item that reached an output
    double avgQos = 0;          ///< mean utility over those items
    std::vector<OutputSummary> outputs;
    SchedulerStats scheduler;
    std::vector<QueueSample> queued;  ///< with telemetry only

    /// Share of the engine thread's CPU time not spent in the boxes' work (%).
    double overheadPercent() const { return cpuSeconds > 0 ? 100.0 * (cpuSeconds - workSeconds) / cpuSeconds : 0.0; }
};

/// Validate and run `graph` under `scheduler` (runner syntax) on this thread until its sources end
/// and everything is drained. Throws if the graph is invalid or a node fails.
WorkloadRun runWorkload(const GraphSpec& graph, const std::string& scheduler, const WorkloadRunOptions& options = {});

}  // namespace isochron::bench
