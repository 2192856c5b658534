// What hosting an operator through the plugin ABI costs (issue 17): the same graphs run with the
// built-in segments.pass_through, with the pass_through example plugin in-process, and with it
// sandboxed (its nodes in child processes), alternating in one process; the medians of the ratios
// are reported. Targets: in-process within 5% of the built-in; sandboxed at least 50% of
// in-process, with 4096-sample segments.
//   pass            one pass-through between the source and the sink
//   passchain       10 pass-throughs in a chain: the ABI's cost per hop, nothing else to hide it
//                   (the plugin routes its items: the host passes them on without calling it)
//   passchain-called  the same with the plugin's `route` off: every item goes through its process
//                   hook and forward, what a plugin call per item costs
//   statfilter      one pass-through between the source and the statfilter pipeline (rewindow,
//                   stddev and mean filters): one plugin node in a graph that does some work
//   biquad          the biquad example plugin (a bandpass computing a new signal) between the
//                   source and the sink: a plugin that does the work itself (no built-in to compare
//                   with; its built-in columns repeat the in-process ones)
// The in-process ratio is per second of engine-thread CPU (other processes on a shared machine
// hardly move it) and per wall second. The sandboxed ratio is per second of CPU of this process and
// its children together (user + system, what the run costs wherever it runs) and per wall second;
// on a machine with more runnable processes than cores the wall figure favours the sandbox, whose
// two processes get two shares of the CPU.
#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
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

/// User + system CPU seconds of this process and of its children that have ended.
double processCpuSeconds() {
    double seconds = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage usage{};
        getrusage(who, &usage);
        for (const timeval& t : {usage.ru_utime, usage.ru_stime}) seconds += static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    }
    return seconds;
}

/// A timed run and the CPU it cost this process and its children (the sandbox's, reaped when the
/// engine is destroyed at the end of runTimed).
std::pair<TimedRun, double> runCounted(const GraphSpec& graph, const std::string& scheduler, double seconds) {
    const double before = processCpuSeconds();
    TimedRun run = runTimed(graph, scheduler, seconds);
    return {run, processCpuSeconds() - before};
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// `graph` with its pass-throughs as the plugin's, with parameters `params`.
GraphSpec withPlugin(GraphSpec graph, const nlohmann::json& params) {
    for (NodeSpec& node : graph.nodes) {
        if (node.type != kBuiltin) continue;
        node.type = kPlugin;
        for (const auto& [name, value] : params.items()) node.params[name] = value;
    }
    return graph;
}

// samples/bench/statfilter with a pass-through between the source and the rest.
GraphSpec statfilterWithPass(const BenchContext& context) {
    GraphSpec graph = benchGraph("statfilter", context, kBlock);
    graph.nodes.push_back({"pass", kBuiltin, {}, std::nullopt, nlohmann::json::object()});
    auto fromSource = std::find_if(graph.edges.begin(), graph.edges.end(), [](const EdgeSpec& edge) { return edge.fromNode == "source"; });
    const EdgeSpec rest{"pass", "out", fromSource->toNode, fromSource->toPort};
    fromSource->toNode = "pass";
    fromSource->toPort = "in";
    graph.edges.push_back(rest);
    return graph;
}

// The source, one pass-through, the sink.
GraphSpec singlePassGraph(const BenchContext& context) {
    GraphSpec graph = benchGraph("passchain", context, kBlock);
    graph.nodes.erase(std::remove_if(graph.nodes.begin(), graph.nodes.end(), [](const NodeSpec& node) { return node.type == kBuiltin; }),
                      graph.nodes.end());
    graph.nodes.push_back({"pass", kBuiltin, {}, std::nullopt, nlohmann::json::object()});
    const std::string sink = graph.edges.back().toNode;
    graph.edges = {{"source", "out0", "pass", "in"}, {"pass", "out", sink, "in"}};
    return graph;
}

// The source straight into the biquad plugin, then the sink.
GraphSpec biquadGraph(const BenchContext& context) {
    GraphSpec graph = benchGraph("passchain", context, kBlock);
    graph.nodes.erase(std::remove_if(graph.nodes.begin(), graph.nodes.end(), [](const NodeSpec& node) { return node.type == kBuiltin; }),
                      graph.nodes.end());
    graph.nodes.push_back({"filter", "biquad.filter", {{"response", "bandpass"}, {"frequency_hz", 700.0}, {"q", 4.0}}, std::nullopt,
                           nlohmann::json::object()});
    const std::string sink = graph.edges.back().toNode;
    graph.edges = {{"source", "out0", "filter", "in"}, {"filter", "out", sink, "in"}};
    return graph;
}

void pluginHosting(const BenchContext& context, const Report& report) {
    const std::filesystem::path folder = std::filesystem::path(ISOCHRON_PLUGIN_DIR);
    const std::vector<std::filesystem::path> plugins = {folder / "pass_through.so", folder / "biquad.so"};
    for (const auto& plugin : plugins) {
        if (!std::filesystem::exists(plugin)) {
            throw std::runtime_error("plugin-hosting needs the example plugin " + plugin.string() +
                                     ": build it with `cmake --build --preset release --target pass_through biquad isochron-plugin-sandbox`");
        }
    }
    const std::string scheduler = context.scheduler.value_or("df");
    const double seconds = std::max(0.25, context.seconds / 3);
    PluginHost host(builtinRegistry());
    auto hosted = [&](bool sandboxed) {
        PluginHosting hosting;
        hosting.sandboxed = sandboxed;
        for (const auto& plugin : plugins) {
            host.unload(plugin);
            host.load(plugin, hosting);
        }
    };
    struct Variant {
        std::string name;
        GraphSpec builtin;
        nlohmann::json pluginParams;
    };
    const nlohmann::json routed = nlohmann::json::object();
    const std::vector<Variant> graphs = {{"pass", singlePassGraph(context), routed},
                                         {"passchain", benchGraph("passchain", context, kBlock), routed},
                                         {"passchain-called", benchGraph("passchain", context, kBlock), {{"route", false}}},
                                         {"statfilter", statfilterWithPass(context), routed},
                                         {"biquad", biquadGraph(context), routed}};
    for (const auto& [name, builtin, pluginParams] : graphs) {
        const GraphSpec plugged = withPlugin(builtin, pluginParams);
        const bool pluginOnly = name == "biquad";
        std::vector<double> builtinRates, inProcessRates, sandboxedRates, cpuRatios, wallRatios, sandboxRatios, sandboxCpuRatios, sandboxCpuUs;
        for (int round = 0; round < kRounds; ++round) {
            hosted(false);
            const auto [inProcess, inProcessCpu] = runCounted(plugged, scheduler, seconds);
            const TimedRun reference = pluginOnly ? inProcess : runTimed(builtin, scheduler, seconds);
            hosted(true);
            const auto [sandboxed, sandboxedCpu] = runCounted(plugged, scheduler, seconds);
            builtinRates.push_back(reference.samplesPerSecond());
            inProcessRates.push_back(inProcess.samplesPerSecond());
            sandboxedRates.push_back(sandboxed.samplesPerSecond());
            cpuRatios.push_back(inProcess.samplesPerCpuSecond() / reference.samplesPerCpuSecond());
            wallRatios.push_back(inProcess.samplesPerSecond() / reference.samplesPerSecond());
            sandboxRatios.push_back(sandboxed.samplesPerSecond() / inProcess.samplesPerSecond());
            const double perCpu = static_cast<double>(sandboxed.sourceSamples) / sandboxedCpu;
            const double inProcessPerCpu = static_cast<double>(inProcess.sourceSamples) / inProcessCpu;
            sandboxCpuRatios.push_back(perCpu / inProcessPerCpu);
            sandboxCpuUs.push_back(1e6 * static_cast<double>(kBlock) * (1 / perCpu - 1 / inProcessPerCpu));
        }
        for (const auto& plugin : plugins) host.unload(plugin);
        report({{"benchmark", "plugin-hosting"},
                {"scheduler", scheduler},
                {"graph", name},
                {"block", kBlock},
                {"samples_per_s", median(builtinRates)},
                {"samples_per_s_in_process", median(inProcessRates)},
                {"samples_per_s_sandboxed", median(sandboxedRates)},
                {"in_process_vs_builtin_cpu_pct", 100 * median(cpuRatios)},
                {"in_process_vs_builtin_wall_pct", 100 * median(wallRatios)},
                {"sandboxed_vs_in_process_cpu_pct", 100 * median(sandboxCpuRatios)},
                {"sandboxed_vs_in_process_wall_pct", 100 * median(sandboxRatios)},
                // The CPU sandboxing adds per segment (a round trip per plugin node), in microseconds.
                {"sandbox_cpu_us_per_segment", median(sandboxCpuUs)}});
    }
}

}  // namespace

std::vector<Benchmark> pluginBenchmarks() {
    return {{"plugin-hosting", "a pass-through plugin in-process and sandboxed vs the built-in (targets: >= 95%, sandboxed >= 50%)",
             pluginHosting}};
}

}  // namespace isochron::bench
