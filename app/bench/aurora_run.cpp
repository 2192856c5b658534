#include "app/bench/aurora_run.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <thread>

#include "app/bench/graph_runner.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "nodes/register_builtin_nodes.h"
#include "nodes/workload/busy_work.h"

namespace isochron::bench {

WorkloadRun runWorkload(const GraphSpec& spec, const std::string& scheduler, const WorkloadRunOptions& options) {
    ValidatedGraph graph = validateGraph(spec, builtinRegistry());
    Engine engine(graph, parseSchedulerText(scheduler));
    std::shared_ptr<SnapshotChannel> telemetry;
    if (options.telemetryHz > 0) telemetry = engine.openTelemetry(options.telemetryHz);

    WorkloadRun run;
    std::atomic<bool> done{false};
    auto readTelemetry = [&] {
        if (!telemetry) return;
        while (const TelemetrySnapshot* snapshot = telemetry->next()) {
            std::uint64_t items = 0;
            for (const NodeTelemetry& node : snapshot->nodes) items += node.queuedItems;
            run.queued.push_back({snapshot->elapsedSeconds, items});
            telemetry->release(snapshot);
        }
    };
    std::thread watcher([&] {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(options.timeoutSeconds);
        while (!done.load()) {
            readTelemetry();
            if (std::chrono::steady_clock::now() >= deadline) engine.requestStop();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    const double cpuBefore = threadCpuSeconds();
    const std::int64_t busyBefore = busyNanosecondsOnThisThread();
    RunOutcome outcome = engine.run();
    run.cpuSeconds = threadCpuSeconds() - cpuBefore;
    run.workSeconds = static_cast<double>(busyNanosecondsOnThisThread() - busyBefore) * 1e-9;
    done.store(true);
    watcher.join();
    readTelemetry();
    if (!outcome.failures.empty()) throw std::runtime_error("workload failed: " + outcome.failures.front());

    run.completed = outcome.completed;
    run.wallSeconds = outcome.wallSeconds;
    run.scheduler = engine.scheduler().stats();
    for (const NodeContext* node : engine.nodes()) {
        if (node->isSource()) {
            for (const auto& out : node->outputs) run.inputItems += out.items;
        } else if (node->descriptor->typeName == "workload.universal_box") {
            std::uint64_t items = 0;
            for (const auto& in : node->inputs) items += in.items;
            run.nominalWorkSeconds += static_cast<double>(items) * node->params.getReal("cost_us") * 1e-6;
            run.boxItems += items;
        }
    }
    const RunSummary summary = summarizeRun(engine, outcome);
    double latencySum = 0, utilitySum = 0;
    std::uint64_t counted = 0;
    for (const OutputSummary& output : summary.outputs) {
        run.outputItems += output.items;
        latencySum += output.latencyMeanMs * static_cast<double>(output.latencyCount);
        utilitySum += output.utilityAverage * static_cast<double>(output.latencyCount);
        counted += output.latencyCount;
    }
    run.outputs = summary.outputs;
    if (counted > 0) {
        run.avgLatencyMs = latencySum / static_cast<double>(counted);
        run.avgQos = utilitySum / static_cast<double>(counted);
    }
    return run;
}

}  // namespace isochron::bench
