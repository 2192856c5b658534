// Out-of-order processing against in-order processing (Li et al., VLDB 2008, Figure 1): a
// tumbling-window count over the union of two streams of 110 000 items/s, one of them `skew`
// seconds late. OOP: streams.union passes items through and relational.window_aggregate keeps a
// partial count per open window, closed by punctuation. IOP: streams.ordered_merge buffers the early
// stream until the late one catches up, then the same window. Memory is what the operators hold
// at their peak (buffered items, partial aggregates); both give the same windows.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <time.h>

#include "app/bench/benchmark.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/run_summary.h"
#include "engine/schedulers/scheduler.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::bench {
namespace {

constexpr double kRate = 110'000;  // items per second per stream, as in the paper
constexpr double kWindowSeconds = 10;

std::string windowedCountGraph(bool outOfOrder, double skewSeconds, double spanSeconds, double rate) {
    const auto count = std::to_string(static_cast<long long>(rate * spanSeconds));
    const std::string merge = outOfOrder ? "streams.union" : "streams.ordered_merge";
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "early", "type": "workload.tuple_source", "params": {"rate": )" + std::to_string(rate) + R"(, "count": )" + count +
           R"(, "burst": 1024, "pace": 0, "progress_interval": 1024}},
      {"id": "late", "type": "workload.tuple_source", "params": {"rate": )" + std::to_string(rate) + R"(, "count": )" + count +
           R"(, "burst": 1024, "pace": 0, "progress_interval": 1024, "start": )" + std::to_string(-skewSeconds) + R"(}},
      {"id": "merge", "type": ")" + merge + R"("},
      {"id": "windows", "type": "relational.window_aggregate", "params": {"range": )" + std::to_string(kWindowSeconds) + R"(}},
      {"id": "out", "type": "io.null_sink"}],
     "edges": [{"from": "early.out0", "to": "merge.in0"}, {"from": "late.out0", "to": "merge.in1"},
               {"from": "merge.out", "to": "windows.in"}, {"from": "windows.out", "to": "out.in"}]})";
}

double threadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

struct WindowedCountRun {
    RunSummary summary;
    double cpuSeconds = 0;
    std::uint64_t peakHeldBytes = 0, peakHeldItems = 0;
    std::uint64_t sourceItems = 0, windows = 0;
};

WindowedCountRun runWindowedCount(bool outOfOrder, double skew, double span, double rate, const std::string& scheduler) {
    ValidatedGraph graph = validateGraph(parseGraph(windowedCountGraph(outOfOrder, skew, span, rate)), builtinRegistry());
    Engine engine(graph, parseSchedulerText(scheduler));
    const double cpuAtStart = threadCpuSeconds();
    const RunOutcome outcome = engine.run();
    WindowedCountRun run;
    run.cpuSeconds = threadCpuSeconds() - cpuAtStart;
    run.summary = summarizeRun(engine, outcome);
    for (const char* id : {"merge", "windows"}) {
        const HeldState held = engine.findNode(id)->op->heldState();
        run.peakHeldBytes += held.peakBytes;
        run.peakHeldItems += held.peakItems;
    }
    for (const char* id : {"early", "late"}) run.sourceItems += engine.findNode(id)->outputs[0].items;
    run.windows = engine.findNode("out")->inputs[0].items;
    return run;
}

void skewMemory(const BenchContext& context, const Report& report) {
    const std::string scheduler = context.scheduler.value_or("df");
    const double span = 60;  // seconds of each stream: longer than the largest skew
    // --seconds scales the item rate (2 s, the default: the paper's rate), so a quick run keeps the
    // figure's skews and only holds proportionally fewer items.
    const double rate = kRate * std::clamp(context.seconds / 2.0, 0.01, 1.0);
    for (double skew : {1.0, 5.0, 10.0, 20.0, 30.0, 40.0}) {
        const WindowedCountRun oop = runWindowedCount(true, skew, span, rate, scheduler);
        const WindowedCountRun iop = runWindowedCount(false, skew, span, rate, scheduler);
        const OutputSummary& oopOut = oop.summary.outputs.front();
        const OutputSummary& iopOut = iop.summary.outputs.front();
        report({{"benchmark", "oop-skew"},
                {"scheduler", scheduler},
                {"skew_s", skew},
                {"items_per_s_per_stream", rate},
                {"windows", oop.windows},
                {"same_windows", oop.windows == iop.windows},
                {"oop_peak_bytes", oop.peakHeldBytes},
                {"iop_peak_bytes", iop.peakHeldBytes},
                {"oop_peak_items", oop.peakHeldItems},
                {"iop_peak_items", iop.peakHeldItems},
                {"memory_ratio", iop.peakHeldBytes ? static_cast<double>(oop.peakHeldBytes) / static_cast<double>(iop.peakHeldBytes) : 0.0},
                {"oop_latency_p95_ms", oopOut.latencyP95Ms},
                {"iop_latency_p95_ms", iopOut.latencyP95Ms},
                {"oop_items_per_cpu_s", static_cast<double>(oop.sourceItems) / oop.cpuSeconds},
                {"iop_items_per_cpu_s", static_cast<double>(iop.sourceItems) / iop.cpuSeconds},
                {"samples_per_s", 0.0}});
    }
}

void unionWindowThroughput(const BenchContext& context, const Report& report) {
    const std::string scheduler = context.scheduler.value_or("df");
    const double span = std::max(5.0, context.seconds * 10);  // stream seconds at 1 M items/s each
    for (bool outOfOrder : {true, false}) {
        const WindowedCountRun run = runWindowedCount(outOfOrder, 0, span, 1e6, scheduler);
        report({{"benchmark", "oop-throughput"},
                {"scheduler", scheduler},
                {"graph", outOfOrder ? "union + window count" : "ordered_merge + window count"},
                {"items", run.sourceItems},
                {"items_per_s", static_cast<double>(run.sourceItems) / run.summary.outcome.wallSeconds},
                {"items_per_cpu_s", static_cast<double>(run.sourceItems) / run.cpuSeconds},
                {"samples_per_s", 0.0}});
    }
}

}  // namespace

std::vector<Benchmark> outOfOrderBenchmarks() {
    return {{"oop-skew", "windowed count over a skewed union: OOP vs in-order memory and latency (OOP paper, Fig. 1)", skewMemory, false},
            {"oop-throughput", "union + WID window count: items per second on one core", unionWindowThroughput, false}};
}

}  // namespace isochron::bench
