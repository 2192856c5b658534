// Soak under overload (issue 16): a graph offered 10x its capacity for a long time, with rate
// control. The claim is bounded memory: after warm-up, RSS and the pool's live bytes stay flat while
// the source sheds what the graph cannot take (counted exactly: gaps in the sample indices), and the
// latency stays under the output's QoS deadline. Every interval reports RSS, pool bytes, items
// offered, admitted, shed and delivered, and latency; the last point sums the run up. The record run
// is 10 minutes (`--seconds 600`); a quick check takes `--seconds 10`.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"
#include "engine/graph/validated_graph.h"
#include "engine/items/item.h"
#include "engine/memory/memory_pool.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/wire_tap.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::bench {
namespace {

constexpr double kBoxCostUs = 100;     // the graph's capacity: about 10 000 items/s on one core
constexpr double kOfferedLoad = 10;    // times the capacity measured in the same process
constexpr int kRateControlBurst = 4;   // blocks a source admits per round
constexpr double kDeadlineMs = 50;     // QoS: utility 1 up to this latency, 0 at 10x it
constexpr double kMaxLagMs = 25;       // the source sheds what is this late: latency stays under the deadline
constexpr int kIntervals = 20;         // points reported over the run
constexpr std::int64_t kBlock = 256;   // samples per item (1 KB)

// A noise generator (items of kBlock f32 samples from the memory pool, so what is queued holds real
// memory) -> universal box -> null sink, forever. The source drops its overdue blocks once the next
// is kMaxLagMs late.
GraphSpec soakGraph(double itemsPerSecond, double pace) {
    GraphSpec spec;
    spec.name = "soak";
    spec.nodes.push_back({"source",
                          "generators.signal_generator",
                          {{"waveform", "noise"}, {"rate", itemsPerSecond * kBlock}, {"block", kBlock}, {"duration", 0}, {"pace", pace},
                           {"max_lag", kMaxLagMs / 1000}},
                          {}});
    spec.nodes.push_back({"box", "workload.universal_box", {{"cost_us", kBoxCostUs}}, {}});
    NodeSpec sink{"sink", "io.null_sink", {}, {}};
    sink.extra["qos"] = nlohmann::json::array({nlohmann::json::array({0.0, 1.0}), nlohmann::json::array({kDeadlineMs, 1.0}),
                                               nlohmann::json::array({10 * kDeadlineMs, 0.0})});
    spec.nodes.push_back(std::move(sink));
    spec.edges.push_back({"source", "out", "box", "in0"});
    spec.edges.push_back({"box", "out", "sink", "in"});
    return spec;
}

// Counts the items the source admits and the ones it skipped: a gap in the sample indices is the
// blocks the pacer dropped.
class ShedCounter final : public WireTap {
public:
    void observe(const Item& item) noexcept override {
        admitted_.store(admitted_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        nextIndex_.store(static_cast<std::uint64_t>(item.range().end() / kBlock), std::memory_order_relaxed);
    }
    std::uint64_t admitted() const { return admitted_.load(std::memory_order_relaxed); }
    std::uint64_t shed() const { return nextIndex_.load(std::memory_order_relaxed) - admitted(); }

private:
    std::atomic<std::uint64_t> admitted_{0}, nextIndex_{0};
};

// Resident set size of this process, from /proc/self/status (0 where there is none).
double residentMegabytes() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            double kilobytes = 0;
            status >> kilobytes;
            return kilobytes / 1024.0;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0;
}

std::string withRateControl(const std::string& scheduler) {
    return scheduler + (scheduler.find(':') == std::string::npos ? ":" : ",") + "burst=" + std::to_string(kRateControlBurst);
}

void runSoak(const BenchContext& context, const Report& report) {
    const std::string scheduler = withRateControl(context.scheduler.value_or("df"));
    const double seconds = context.seconds;
    // Capacity: the same graph unpaced, for a tenth of the soak (at most 10 s).
    const TimedRun capacityRun = runTimed(soakGraph(1000, 0), scheduler, std::min(seconds / 10, 10.0));
    const double capacity = static_cast<double>(capacityRun.sourceItems) / capacityRun.seconds;
    const double offeredRate = kOfferedLoad * capacity;

    Engine engine(validateGraph(soakGraph(offeredRate, 1), builtinRegistry()), parseSchedulerText(scheduler));
    auto shed = std::make_shared<ShedCounter>();
    engine.setTap("source", "out", shed);
    const auto telemetry = engine.openTelemetry(10);
    const double rssBefore = residentMegabytes();
    std::thread runner([&] { engine.run(); });

    struct Sample {
        double elapsed, rssMb, poolMb, p95Ms;
    };
    std::vector<Sample> samples;
    TelemetrySnapshot last;
    double peakRssMb = 0, peakPoolMb = 0, worstP95Ms = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int interval = 1; interval <= kIntervals; ++interval) {
        // Read snapshots as they come (the channel holds 16: read less often, it would skip the newest).
        const auto end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(seconds * interval / kIntervals));
        while (std::chrono::steady_clock::now() < end) {
            std::this_thread::sleep_until(std::min(end, std::chrono::steady_clock::now() + std::chrono::milliseconds(50)));
            while (const TelemetrySnapshot* snapshot = telemetry->next()) {
                last = *snapshot;
                peakPoolMb = std::max(peakPoolMb, static_cast<double>(snapshot->liveBytes) / 1e6);
                telemetry->release(snapshot);
            }
        }
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double rssMb = residentMegabytes();
        const double poolMb = static_cast<double>(last.liveBytes) / 1e6;
        const OutputTelemetry output = last.outputs.empty() ? OutputTelemetry{} : last.outputs.front();
        peakRssMb = std::max(peakRssMb, rssMb);
        worstP95Ms = std::max(worstP95Ms, output.latencyP95Ms);
        samples.push_back({elapsed, rssMb, poolMb, output.latencyP95Ms});
        report({{"benchmark", "soak"},
                {"scheduler", scheduler},
                {"elapsed_s", elapsed},
                {"offered_items", offeredRate * elapsed},
                {"admitted_items", shed->admitted()},
                {"shed_items", shed->shed()},
                {"delivered_items", output.items},
                {"rss_mb", rssMb},
                {"pool_live_mb", poolMb},
                {"latency_p50_ms", output.latencyP50Ms},
                {"latency_p95_ms", output.latencyP95Ms},
                {"latency_p99_ms", output.latencyP99Ms},
                {"utility_average", output.utilityAverage}});
    }
    engine.requestStop();
    runner.join();

    // Steady state: the second half of the run. Growth: from the end of the first tenth to the end.
    double steadyRssMb = 0, steadyPoolMb = 0;
    const std::size_t half = samples.size() / 2;
    for (std::size_t i = half; i < samples.size(); ++i) {
        steadyRssMb += samples[i].rssMb / static_cast<double>(samples.size() - half);
        steadyPoolMb += samples[i].poolMb / static_cast<double>(samples.size() - half);
    }
    const Sample& warm = samples[std::max<std::size_t>(samples.size() / 10, 1) - 1];
    const double admitted = static_cast<double>(shed->admitted());
    const double shedItems = static_cast<double>(shed->shed());
    report({{"benchmark", "soak"},
            {"scheduler", scheduler},
            {"summary", true},
            {"seconds", samples.back().elapsed},
            {"capacity_items_per_s", capacity},
            {"offered_items_per_s", offeredRate},
            {"admitted_items_per_s", admitted / samples.back().elapsed},
            {"shed_fraction", shedItems / std::max(1.0, admitted + shedItems)},
            {"rss_before_run_mb", rssBefore},
            {"rss_peak_mb", peakRssMb},
            {"rss_steady_mb", steadyRssMb},
            {"rss_growth_after_warmup_mb", samples.back().rssMb - warm.rssMb},
            {"pool_live_peak_mb", peakPoolMb},
            {"pool_live_steady_mb", steadyPoolMb},
            {"latency_p95_worst_ms", worstP95Ms},
            {"qos_deadline_ms", kDeadlineMs},
            {"utility_average", last.outputs.empty() ? 0.0 : last.outputs.front().utilityAverage}});
}

}  // namespace

std::vector<Benchmark> soakBenchmarks() {
    return {{"soak",
             "10x a graph's capacity with rate control for --seconds (600 for the record): RSS, pool bytes, shed items and "
             "latency over time (issue 16)",
             runSoak, false}};
}

}  // namespace isochron::bench
