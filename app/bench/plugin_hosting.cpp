// What hosting an operator through the plugin ABI costs (issue 17): the same graphs run with the
// built-in segments.pass_through, with the pass_through example plugin in-process, and with it
// sandboxed (its nodes in child processes), alternating in one process; the medians of the ratios
// are reported. Targets: in-process within 5% of the built-in; sandboxed at least 50% of
// in-process, with 4096-sample segments.
//   passchain       10 pass-throughs in a chain: the ABI's cost per hop, nothing else to hide it
//   statfilter      one pass-through between the source and the statfilter pipeline (rewindow,
//                   stddev and mean filters): one plugin node in a graph that does some work
// The in-process ratio is per second of engine-thread CPU (other processes on a shared machine
// hardly move it) and per wall second; the sandboxed ratio is per wall second only, since the
// work moves to the children.
#include <algorithm>
#include <vector>

#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"
#include "engine/plugins/plugin_host.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::bench {
namespace {

constexpr int kRounds = 5;  // built-in / in-process / sandboxed triples per point; medians reported
constexpr std::int64_t kBlock = 4096;
const char* kBuiltin = "segments.pass_through";
const char* kPlugin = "pass.through";

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// `graph` with its pass-throughs as the plugin's.
GraphSpec withPlugin(GraphSpec graph) {
    for (NodeSpec& node : graph.nodes) {
        if (node.type == kBuiltin) node.type = kPlugin;
    }
    return graph;
}

// samples/bench/statfilter with a pass-through between the source and the rest.
GraphSpec statfilterWithPass(const BenchContext& context) {
    GraphSpec graph = benchGraph("statfilter", context, kBlock);
    graph.nodes.push_back({"pass", kBuiltin, {}, std::nullopt, nlohmann::json::object()});
    for (EdgeSpec& edge : graph.edges) {
        if (edge.fromNode != "source") continue;
        graph.edges.push_back({"pass", "out", edge.toNode, edge.toPort});
        edge.toNode = "pass";
        edge.toPort = "in";
        break;
    }
    return graph;
}

void pluginHosting(const BenchContext& context, const Report& report) {
    const std::filesystem::path plugin = std::filesystem::path(ISOCHRON_PLUGIN_DIR) / "pass_through.so";
    const std::string scheduler = context.scheduler.value_or("df");
    const double seconds = std::max(0.25, context.seconds / 3);
    PluginHost host(builtinRegistry());
    auto hosted = [&](bool sandboxed) {
        host.unload(plugin);
        PluginHosting hosting;
        hosting.sandboxed = sandboxed;
        host.load(plugin, hosting);
    };
    const std::vector<std::pair<std::string, GraphSpec>> graphs = {{"passchain", benchGraph("passchain", context, kBlock)},
                                                                   {"statfilter", statfilterWithPass(context)}};
    for (const auto& [name, builtin] : graphs) {
        const GraphSpec plugged = withPlugin(builtin);
        std::vector<double> builtinRates, inProcessRates, sandboxedRates, cpuRatios, wallRatios, sandboxRatios;
        for (int round = 0; round < kRounds; ++round) {
            const TimedRun reference = runTimed(builtin, scheduler, seconds);
            hosted(false);
            const TimedRun inProcess = runTimed(plugged, scheduler, seconds);
            hosted(true);
            const TimedRun sandboxed = runTimed(plugged, scheduler, seconds);
            builtinRates.push_back(reference.samplesPerSecond());
            inProcessRates.push_back(inProcess.samplesPerSecond());
            sandboxedRates.push_back(sandboxed.samplesPerSecond());
            cpuRatios.push_back(inProcess.samplesPerCpuSecond() / reference.samplesPerCpuSecond());
            wallRatios.push_back(inProcess.samplesPerSecond() / reference.samplesPerSecond());
            sandboxRatios.push_back(sandboxed.samplesPerSecond() / inProcess.samplesPerSecond());
        }
        host.unload(plugin);
        report({{"benchmark", "plugin-hosting"},
                {"scheduler", scheduler},
                {"graph", name},
                {"block", kBlock},
                {"samples_per_s", median(builtinRates)},
                {"samples_per_s_in_process", median(inProcessRates)},
                {"samples_per_s_sandboxed", median(sandboxedRates)},
                {"in_process_vs_builtin_cpu_pct", 100 * median(cpuRatios)},
                {"in_process_vs_builtin_wall_pct", 100 * median(wallRatios)},
                {"sandboxed_vs_in_process_pct", 100 * median(sandboxRatios)}});
    }
}

}  // namespace

std::vector<Benchmark> pluginBenchmarks() {
    return {{"plugin-hosting", "a pass-through plugin in-process and sandboxed vs the built-in (targets: >= 95%, sandboxed >= 50%)",
             pluginHosting}};
}

}  // namespace isochron::bench
