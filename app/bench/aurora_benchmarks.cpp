// The experiments of Aurora's scheduling paper (Carney et al., VLDB 2003, sections 5 and 6), on
// workloads of universal boxes (aurora_workload.h). Time is shrunk by kTimeShrink: box costs and QoS
// latencies are that many times smaller than the paper's, so a point takes about a second; the
// ratios between costs, rates and QoS deadlines are the paper's. --seconds S scales every run's
// input duration by S / 2 (the default, 2, gives the durations in BENCHMARKS.md).
#include <algorithm>
#include <cmath>
#include <map>

#include "app/bench/aurora_run.h"
#include "app/bench/aurora_workload.h"
#include "app/bench/benchmark.h"

namespace isochron::bench {
namespace {

constexpr double kTimeShrink = 10;  // paper time / our time
// The paper's per-box cost range, [0.1 ms, 1 ms] per tuple, shrunk.
constexpr double kMinCostUs = 100 / kTimeShrink;
constexpr double kMaxCostUs = 1000 / kTimeShrink;

// Bursty arrivals: every stream's items of this period arrive together (the paper's 1 s, shrunk).
constexpr double kBurstPeriodS = 1.0 / kTimeShrink;

double inputSeconds(const BenchContext& context, double seconds) { return seconds * context.seconds / 2; }

/// Make every stream's items arrive together, a burst per `periodSeconds` (at least one item each).
void alignBursts(WorkloadSpec& spec, double periodSeconds) {
    spec.aligned = true;
    spec.burst = std::max(1, static_cast<int>(std::lround(buildWorkload(spec).ratePerStream * periodSeconds)));
}

/// Section 6.1's tight and loose QoS graphs, {(0,1),(1 ms,1),(1 s,0)} and {(0,1),(4 s,1),(5 s,0)}, shrunk.
std::vector<QosGraph> tightAndLoose() {
    const double ms = 1 / kTimeShrink;
    return {QosGraph({{0, 1}, {1 * ms, 1}, {1000 * ms, 0}}), QosGraph({{0, 1}, {4000 * ms, 1}, {5000 * ms, 0}})};
}

/// The fields every Aurora point carries.
nlohmann::ordered_json basePoint(const std::string& benchmark, const std::string& scheduler, const WorkloadRun& run) {
    const double items = std::max<double>(1, static_cast<double>(run.inputItems));
    return {{"benchmark", benchmark},
            {"scheduler", scheduler},
            {"avg_qos", run.avgQos},
            {"avg_latency_ms", run.avgLatencyMs},
            {"overhead_pct", run.overheadPercent()},
            {"work_vs_set_cost", run.nominalWorkSeconds > 0 ? run.workSeconds / run.nominalWorkSeconds : 0.0},
            {"engine_cpu_share", run.wallSeconds > 0 ? run.cpuSeconds / run.wallSeconds : 0.0},
            {"decisions_per_item", static_cast<double>(run.scheduler.decisions) / items},
            {"box_calls_per_item", static_cast<double>(run.scheduler.boxCalls) / items},
            {"input_items", run.inputItems},
            {"drained", run.completed}};
}

/// Mean utility over the outputs whose trees got QoS graph `which`, weighted by items.
double qosOf(const WorkloadRun& run, const Workload& workload, int which) {
    double sum = 0, count = 0;
    for (std::size_t t = 0; t < workload.qosOfTree.size(); ++t) {
        if (workload.qosOfTree[t] != which) continue;
        for (const OutputSummary& o : run.outputs) {
            if (o.node != treeNodeId(static_cast<int>(t), "out")) continue;
            sum += o.utilityAverage * static_cast<double>(o.latencyCount);
            count += static_cast<double>(o.latencyCount);
        }
    }
    return count > 0 ? sum / count : 0.0;
}

// ---- Figure 5: round-robin box-at-a-time vs Min-Cost superboxes, latency vs capacity ----------
void superbox(const BenchContext& context, const Report& report) {
    const std::vector<std::string> schedulers = {"rr", "rr:train=1", "superbox-mc"};
    for (double capacity : {0.2, 0.4, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05}) {
        WorkloadSpec spec;
        spec.trees = 5;
        spec.minCostUs = kMinCostUs;
        spec.maxCostUs = kMaxCostUs;
        spec.capacity = capacity;
        spec.seconds = inputSeconds(context, 1.0);
        const Workload workload = buildWorkload(spec);
        for (const std::string& scheduler : schedulers) {
            const WorkloadRun run = runWorkload(workload.graph, scheduler);
            auto point = basePoint("aurora-superbox", scheduler, run);
            point["capacity"] = capacity;
            report(point);
        }
    }
    // What scheduling itself costs: the same trees with boxes that do no work, every stream's item
    // arriving together and as fast as possible, so the engine's time is all overhead.
    WorkloadSpec spec;
    spec.trees = 5;
    spec.minCostUs = spec.maxCostUs = 0;
    spec.aligned = true;
    spec.pace = 0;
    spec.itemsPerStream = static_cast<std::int64_t>(std::lround(1000 * context.seconds));
    const Workload workload = buildWorkload(spec);
    for (const std::string& scheduler : schedulers) {
        const WorkloadRun run = runWorkload(workload.graph, scheduler);
        const double items = static_cast<double>(run.inputItems);
        report({{"benchmark", "aurora-superbox"},
                {"series", "engine-cost"},
                {"scheduler", scheduler},
                {"ns_per_input_item", run.cpuSeconds * 1e9 / items},
                {"ns_per_box_call_item", run.cpuSeconds * 1e9 / static_cast<double>(run.boxItems)},
                {"decisions_per_item", static_cast<double>(run.scheduler.decisions) / items},
                {"box_calls_per_item", static_cast<double>(run.scheduler.boxCalls) / items},
                {"input_items", run.inputItems}});
    }
}

// ---- Figure 6: Min-Cost vs Min-Latency traversal, latency vs per-item box cost ----------------
void traversal(const BenchContext& context, const Report& report) {
    constexpr int kRepeats = 3;  // latency is averaged over this many runs per point
    for (double costUs : {0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
        WorkloadSpec spec;
        spec.trees = 1;
        spec.aligned = true;  // every leaf's item arrives together, as in the paper's section 4.1.2 example
        spec.minCostUs = spec.maxCostUs = costUs;
        spec.capacity = 0.5;
        spec.seconds = inputSeconds(context, 0.5);
        const Workload workload = buildWorkload(spec);
        for (const std::string scheduler : {"superbox-mc", "superbox-ml"}) {
            std::vector<double> latencies;
            WorkloadRun run;
            for (int repeat = 0; repeat < kRepeats; ++repeat) {
                run = runWorkload(workload.graph, scheduler);
                latencies.push_back(run.avgLatencyMs);
            }
            auto point = basePoint("aurora-traversal", scheduler, run);
            double mean = 0, spread = 0;
            for (double l : latencies) mean += l / kRepeats;
            for (double l : latencies) spread = std::max(spread, std::abs(l - mean));
            point["avg_latency_ms"] = mean;
            point["latency_spread_ms"] = spread;
            point["capacity"] = spec.capacity;
            point["cost_us"] = costUs;
            report(point);
        }
    }
}

// ---- Figure 7: memory over a superbox run for Min-Memory, Min-Cost and Min-Latency ------------
void memory(const BenchContext& context, const Report& report) {
    constexpr double kMemoryBurstPeriodS = 0.025;
    constexpr double kWarmUpS = 1.0;         // estimates settle and plans are recomputed from them
    constexpr double kBinMs = 1.0;
    WorkloadSpec spec;
    spec.trees = 1;
    spec.minCostUs = kMinCostUs / 10;
    spec.maxCostUs = kMaxCostUs / 10;
    spec.minSelectivity = 0.1;
    spec.maxSelectivity = 1.0;
    spec.capacity = 0.7;
    spec.seconds = kWarmUpS + inputSeconds(context, 3.0);
    alignBursts(spec, kMemoryBurstPeriodS);
    const Workload workload = buildWorkload(spec);
    const double periodMs = 1e3 * spec.burst / workload.ratePerStream;
    const auto bins = static_cast<std::size_t>(std::ceil(periodMs / kBinMs));

    std::map<std::string, std::vector<double>> profiles;
    std::map<std::string, std::vector<double>> coverages;
    for (const std::string scheduler : {"superbox-mm", "superbox-mc", "superbox-ml"}) {
        WorkloadRunOptions options;
        options.telemetryHz = 1000;
        const WorkloadRun run = runWorkload(workload.graph, scheduler, options);
        // Fold the snapshots after the warm-up onto one burst period: memory over a superbox run.
        // Per bin, the mean over the bursts that have a snapshot in it, and the share of bursts
        // that do (snapshots are taken while the engine works, so a burst whose run is over has none).
        std::map<long, std::vector<std::pair<double, double>>> perBurst;  // burst -> bin -> (sum, count)
        double total = 0, samples = 0;
        for (const QueueSample& q : run.queued) {
            if (q.elapsedSeconds < kWarmUpS) continue;
            const double elapsedMs = q.elapsedSeconds * 1e3;
            const auto burst = static_cast<long>(elapsedMs / periodMs);
            const auto bin = std::min(bins - 1, static_cast<std::size_t>((elapsedMs - static_cast<double>(burst) * periodMs) / kBinMs));
            auto& cells = perBurst[burst];
            cells.resize(bins);
            cells[bin].first += static_cast<double>(q.items);
            cells[bin].second += 1;
            total += static_cast<double>(q.items);
            samples += 1;
        }
        std::vector<double> profile(bins, 0), coverage(bins, 0);
        for (std::size_t b = 0; b < bins; ++b) {
            for (const auto& [burst, cells] : perBurst) {
                if (cells[b].second == 0) continue;
                profile[b] += cells[b].first / cells[b].second;
                coverage[b] += 1;
            }
            if (coverage[b] > 0) profile[b] /= coverage[b];
            coverage[b] /= static_cast<double>(std::max<std::size_t>(1, perBurst.size()));
        }
        profiles[scheduler] = profile;
        coverages[scheduler] = coverage;
        auto point = basePoint("aurora-memory", scheduler, run);
        point["capacity"] = spec.capacity;
        point["mean_queued_items"] = samples > 0 ? total / samples : 0.0;  // over the snapshots: while the tree runs
        point["burst_period_ms"] = periodMs;
        point["bursts"] = perBurst.size();
        point["snapshots"] = samples;
        report(point);
    }
    // A bin is shown while at least a quarter of the bursts have a snapshot in it: past the end of
    // most runs, the few left are the slowest bursts' and would draw a false bump.
    constexpr double kShownFrom = 0.25;
    const std::vector<double>& reference = profiles["superbox-mm"];
    for (std::size_t b = 0; b < bins; ++b) {
        for (const auto& [scheduler, profile] : profiles) {
            if (coverages[scheduler][b] < kShownFrom) continue;
            report({{"benchmark", "aurora-memory"},
                    {"series", "profile"},
                    {"scheduler", scheduler},
                    {"phase_ms", (static_cast<double>(b) + 0.5) * kBinMs},
                    {"queued_items", profile[b]},
                    {"relative_to_mm", reference[b] > 0 ? profile[b] / reference[b] : 0.0},
                    {"bursts_sampled", coverages[scheduler][b]}});
        }
    }
}

// ---- Figure 8: trains, latency overhead vs train size for bursts of 1, 2 and 4 ----------------
void trains(const BenchContext& context, const Report& report) {
    for (int burst : {1, 2, 4}) {
        WorkloadSpec spec;
        spec.trees = 1;
        spec.fanOut = 2;
        spec.minCostUs = kMinCostUs;
        spec.maxCostUs = kMaxCostUs;
        spec.capacity = 0.5;
        spec.burst = burst;
        spec.seconds = inputSeconds(context, 1.0);
        const Workload workload = buildWorkload(spec);
        for (double fraction : {0.1, 0.2, 0.4, 0.6, 0.8, 1.0}) {
            char scheduler[64];
            std::snprintf(scheduler, sizeof scheduler, "rr:train_fraction=%g", fraction);
            const WorkloadRun run = runWorkload(workload.graph, scheduler);
            auto point = basePoint("aurora-trains", "rr", run);
            point["capacity"] = spec.capacity;
            point["burst"] = burst;
            point["train_fraction"] = fraction;
            // What an item waits beyond its own processing (the paper's "overhead").
            point["latency_overhead_ms"] = run.avgLatencyMs - workload.meanPathCostUs / 1e3;
            report(point);
        }
    }
}

// ---- Figure 11: QoS-driven vs round-robin, average QoS vs capacity ----------------------------
void qos(const BenchContext& context, const Report& report) {
    for (const std::string arrivals : {"even", "bursty"}) {
        for (double capacity : {0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1}) {
            WorkloadSpec spec;
            spec.trees = 20;
            spec.fanOut = 1;
            spec.minCostUs = kMinCostUs;
            spec.maxCostUs = kMaxCostUs;
            spec.qosGraphs = tightAndLoose();
            spec.capacity = capacity;
            spec.seconds = inputSeconds(context, 1.0);
            if (arrivals == "bursty") alignBursts(spec, kBurstPeriodS);
            const Workload workload = buildWorkload(spec);
            for (const std::string scheduler : {"rr", "qos"}) {
                const WorkloadRun run = runWorkload(workload.graph, scheduler);
                auto point = basePoint("aurora-qos", scheduler, run);
                point["arrivals"] = arrivals;
                point["capacity"] = capacity;
                point["avg_qos_tight"] = qosOf(run, workload, 0);
                point["avg_qos_loose"] = qosOf(run, workload, 1);
                report(point);
            }
        }
    }
}

// ---- Figures 13 and 14: bucketing, average QoS and overhead vs partitions ---------------------
void bucketing(const BenchContext& context, const Report& report) {
    // With evenly spaced arrivals every scheduler keeps QoS above 0.99 at this load (aurora-qos):
    // only bursts build the queues whose order bucketing approximates.
    for (const std::string arrivals : {"bursty"}) {
        WorkloadSpec spec;
        spec.trees = 200;
        spec.fanOut = 1;
        spec.minCostUs = kMinCostUs;
        spec.maxCostUs = kMaxCostUs;
        spec.qosGraphs = tightAndLoose();
        spec.capacity = 0.8;
        spec.seconds = inputSeconds(context, 1.0);
        if (arrivals == "bursty") alignBursts(spec, kBurstPeriodS);
        const Workload workload = buildWorkload(spec);
        auto measure = [&](const std::string& scheduler, int partitions) {
            const WorkloadRun run = runWorkload(workload.graph, scheduler);
            auto point = basePoint("aurora-bucketing", scheduler.substr(0, scheduler.find(':')), run);
            point["arrivals"] = arrivals;
            point["capacity"] = spec.capacity;
            point["partitions"] = partitions;
            report(point);
        };
        measure("rr", 0);
        measure("qos", 0);
        for (int n : {1, 2, 3, 5, 10, 20, 50, 100, 200}) {
            measure("qos-bucket:gradient_buckets=" + std::to_string(n) + ",slack_buckets=" + std::to_string(n), n);
        }
    }
}

}  // namespace

std::vector<Benchmark> auroraBenchmarks() {
    return {
        {"aurora-superbox", "Aurora Fig. 5: round-robin box-at-a-time vs Min-Cost superboxes, latency vs capacity (5 trees)", superbox, false},
        {"aurora-traversal", "Aurora Fig. 6: Min-Cost vs Min-Latency traversal, latency vs box cost (1 tree, capacity 0.5)", traversal, false},
        {"aurora-memory", "Aurora Fig. 7: queued items over a superbox run, Min-Memory vs Min-Cost vs Min-Latency", memory, false},
        {"aurora-trains", "Aurora Fig. 8: round-robin trains, latency overhead vs train size for bursts of 1, 2, 4", trains, false},
        {"aurora-qos", "Aurora Fig. 11: QoS-driven vs round-robin, average QoS vs capacity (20 chains of 5)", qos, false},
        {"aurora-bucketing", "Aurora Figs. 13-14: bucketed QoS scheduling, QoS and overhead vs partitions (200 chains of 5)", bucketing, false},
    };
}

}  // namespace isochron::bench
