// Running a benchmark graph for a fixed wall time and measuring it.
#pragma once

#include <cstdint>
#include <string>

#include "engine/graph/graph_spec.h"

namespace isochron::bench {

/// What one timed run of a graph did. [value type]
struct TimedRun {
    double seconds = 0;                ///< wall time of Engine::run(), activation excluded
    double cpuSeconds = 0;             ///< CPU time of the thread that ran Engine::run() (the whole engine for one-thread schedulers)
    std::uint64_t sourceSamples = 0;   ///< samples the sources emitted
    std::uint64_t sourceItems = 0;     ///< data items the sources emitted
    std::uint64_t sourceMarkers = 0;   ///< progress markers the sources emitted
    std::uint64_t sinkSamples = 0;     ///< samples that reached the outputs
    std::uint64_t firstHopSamples = 0; ///< samples the sources' direct successors actually processed
    std::uint64_t peakLiveBytes = 0;   ///< highest pool live bytes seen while running (sampled every 10 ms)
    std::uint64_t snapshots = 0;       ///< telemetry snapshots read (with telemetry on)
    std::uint64_t telemetryBytes = 0;  ///< JSON lines those snapshots made
    double samplesPerSecond() const { return seconds > 0 ? static_cast<double>(sourceSamples) / seconds : 0; }
    /// Source samples per second of engine-thread CPU: unlike wall time, it hardly moves when other
    /// processes share the machine.
    double samplesPerCpuSecond() const { return cpuSeconds > 0 ? static_cast<double>(sourceSamples) / cpuSeconds : 0; }
};

/// CPU time the calling thread has used, in seconds.
double threadCpuSeconds();

/// Validate and run `graph` under `scheduler` (runner syntax) until the sources end or `seconds`
/// pass, whichever is first. With `telemetryHz` > 0, telemetry is read at that rate the way
/// `isochron-run --telemetry` does (each snapshot turned into a JSON line, then dropped). Throws
/// with the validation errors if the graph is wrong.
TimedRun runTimed(const GraphSpec& graph, const std::string& scheduler, double seconds, double telemetryHz = 0);

/// Load samples/bench/<name>.isograph.json and point its source at `input`, replayed from memory
/// in a loop, unpaced, with `block` samples per item.
GraphSpec benchGraph(const std::string& name, const class BenchContext& context, std::int64_t block);

}  // namespace isochron::bench
