// What telemetry costs: the same graph run with telemetry off and on (read at 20 and 60 Hz and
// turned into JSON lines, as `isochron-run --telemetry` does), alternating, in one process. With
// telemetry on the engine also times some operator invocations (CostClock's adaptive period) and
// refreshes every node's cost and selectivity estimates. Target (issue 3): under 5% of throughput.
// Throughput is counted per second of the engine thread's CPU time (`overhead_pct`), which other
// processes on a shared machine hardly move, and per wall-clock second (`overhead_wall_pct`).
#include <algorithm>
#include <vector>

#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"

namespace isochron::bench {
namespace {

constexpr int kPairs = 5;  // off/on pairs per point; the median ratio is reported

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

void telemetryOverhead(const BenchContext& context, const Report& report) {
    const double seconds = std::max(0.25, context.seconds / 3);
    // One sample per item is the worst case (the engine's own work per item dominates); 4096-sample
    // segments are the usual case.
    const std::vector<std::pair<std::string, std::int64_t>> graphs = {{"passchain", 1}, {"statfilter", 4096}};
    const std::string scheduler = context.scheduler.value_or("df");
    for (const auto& [name, block] : graphs) {
        const GraphSpec spec = benchGraph(name, context, block);
        for (double hz : {20.0, 60.0}) {
            std::vector<double> off, on, ratios, cpuRatios;
            std::uint64_t snapshots = 0;
            for (int pair = 0; pair < kPairs; ++pair) {
                const TimedRun quiet = runTimed(spec, scheduler, seconds);
                const TimedRun watched = runTimed(spec, scheduler, seconds, hz);
                off.push_back(quiet.samplesPerSecond());
                on.push_back(watched.samplesPerSecond());
                ratios.push_back(watched.samplesPerSecond() / quiet.samplesPerSecond());
                cpuRatios.push_back(watched.samplesPerCpuSecond() / quiet.samplesPerCpuSecond());
                snapshots += watched.snapshots;
            }
            report({{"benchmark", "telemetry-overhead"},
                    {"scheduler", scheduler},
                    {"graph", name + (block == 1 ? "-samples" : "")},
                    {"telemetry_hz", hz},
                    {"samples_per_s_off", median(off)},
                    {"samples_per_s_on", median(on)},
                    {"overhead_pct", 100 * (1 - median(cpuRatios))},
                    {"overhead_wall_pct", 100 * (1 - median(ratios))},
                    {"snapshots_per_s", static_cast<double>(snapshots) / (kPairs * seconds)}});
        }
    }
}

}  // namespace

std::vector<Benchmark> telemetryBenchmarks() {
    return {{"telemetry-overhead", "throughput with telemetry off vs on at 20 and 60 Hz (target: < 5% cost)", telemetryOverhead}};
}

}  // namespace isochron::bench
