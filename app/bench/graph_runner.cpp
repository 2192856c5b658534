#include "app/bench/graph_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <time.h>

#include "app/bench/benchmark.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/memory/memory_pool.h"
#include "engine/runtime/engine.h"
#include "engine/telemetry/telemetry_json.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::bench {
double threadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

TimedRun runTimed(const GraphSpec& spec, const std::string& scheduler, double seconds, double telemetryHz) {
    ValidatedGraph graph = validateGraph(spec, builtinRegistry());
    Engine engine(graph, parseSchedulerText(scheduler));  // activation (file loading) is not timed
    std::shared_ptr<SnapshotChannel> telemetry = telemetryHz > 0 ? engine.openTelemetry(telemetryHz) : nullptr;
    std::vector<std::string> nodeIds;
    for (const NodeContext* node : engine.nodes()) nodeIds.push_back(node->id);
    std::uint64_t snapshots = 0, telemetryBytes = 0;
    auto readTelemetry = [&] {
        if (!telemetry) return;
        while (const TelemetrySnapshot* snapshot = telemetry->next()) {
            telemetryBytes += telemetryToJson(*snapshot, nodeIds).dump().size() + 1;
            ++snapshots;
            telemetry->release(snapshot);
        }
    };
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> peak{MemoryPool::instance().stats().liveBytes};
    std::thread watchdog([&] {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (!done.load()) {
            readTelemetry();
            peak.store(std::max<std::uint64_t>(peak.load(), MemoryPool::instance().stats().liveBytes));
            if (std::chrono::steady_clock::now() >= deadline) {
                engine.requestStop();
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    const double cpuAtStart = threadCpuSeconds();
    RunOutcome outcome = engine.run();
    const double cpuSeconds = threadCpuSeconds() - cpuAtStart;
    done.store(true);
    watchdog.join();
    readTelemetry();
    if (!outcome.failures.empty()) throw std::runtime_error("benchmark graph failed: " + outcome.failures.front());
    TimedRun run;
    run.seconds = outcome.wallSeconds;
    run.cpuSeconds = cpuSeconds;
    run.peakLiveBytes = peak.load();
    run.snapshots = snapshots;
    run.telemetryBytes = telemetryBytes;
    for (const auto& node : engine.nodes()) {
        if (node->isSource()) {
            for (const auto& out : node->outputs) {
                run.sourceSamples += out.samples;
                run.sourceItems += out.items;
                run.sourceMarkers += out.progressItems;
                for (const Target& target : out.targets) run.firstHopSamples += target.node->inputs[target.port].samples;
            }
        }
        if (node->isSink()) {
            for (const auto& in : node->inputs) run.sinkSamples += in.samples;
        }
    }
    return run;
}

GraphSpec benchGraph(const std::string& name, const BenchContext& context, std::int64_t block) {
    GraphSpec spec = loadGraphFile(context.samplesDirectory / "bench" / (name + ".isograph.json"));
    NodeSpec* source = spec.findNode("source");
    if (!source) throw std::runtime_error("samples/bench/" + name + ".isograph.json has no node 'source'");
    source->params["path"] = context.input.string();
    source->params["preload"] = true;
    source->params["loops"] = 0;
    source->params["pace"] = 0;
    source->params["block"] = block;
    return spec;
}

}  // namespace isochron::bench
