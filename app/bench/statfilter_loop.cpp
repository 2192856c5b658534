// STATFILTER as one hand-written loop over the input in memory: the ceiling the engine is measured
// against in the same run. Same arithmetic and thresholds as samples/bench/statfilter.isograph.json
// (population stddev of each 4096-sample window > a, then its mean < b), fused into a single pass
// per window on the vectorized kernel.
#include <chrono>
#include <cmath>

#include "app/bench/statfilter_loop.h"
#include "app/bench/graph_runner.h"
#include "app/bench/input_audio.h"
#include "engine/graph/graph_file.h"
#include "nodes/kernels/sum_and_squares.h"

namespace isochron::bench {
namespace {

constexpr std::size_t kWindow = 4096;

double thresholdOf(const GraphSpec& graph, const char* node) {
    return graph.findNode(node)->params.at("threshold").get<double>();
}

}  // namespace

LoopRun runStatfilterLoop(const BenchContext& context) {
    GraphSpec graph = loadGraphFile(context.samplesDirectory / "bench" / "statfilter.isograph.json");
    const double loudAbove = thresholdOf(graph, "loud");
    const double centeredBelow = thresholdOf(graph, "centered");
    std::vector<float> input = loadFirstChannel(context.input);
    const std::size_t windows = input.size() / kWindow;
    std::uint64_t samples = 0, passed = 0;
    const double cpuAtStart = threadCpuSeconds();
    auto start = std::chrono::steady_clock::now();
    auto deadline = start + std::chrono::duration<double>(context.seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        for (std::size_t w = 0; w < windows; ++w) {
            const float* x = input.data() + w * kWindow;
            kernels::SumAndSquares s = kernels::sumAndSquares(x, kWindow, x[0]);
            const double shiftedMean = s.sum / kWindow;
            const double variance = std::max(0.0, s.sumSquares / kWindow - shiftedMean * shiftedMean);
            const double mean = shiftedMean + x[0];
            passed += (std::sqrt(variance) > loudAbove && mean < centeredBelow) ? 1 : 0;
        }
        samples += windows * kWindow;
    }
    LoopRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.samplesPerSecond = static_cast<double>(samples) / run.seconds;
    run.samplesPerCpuSecond = static_cast<double>(samples) / (threadCpuSeconds() - cpuAtStart);
    run.windowsPassedPerPass = static_cast<double>(passed) / (static_cast<double>(samples) / (windows * kWindow));
    return run;
}

std::vector<Benchmark> loopBenchmarks() {
    return {{"statfilter-loop", "STATFILTER's arithmetic as one vectorized hand-written loop (the ceiling)",
             [](const BenchContext& context, const Report& report) {
                 const LoopRun run = runStatfilterLoop(context);
                 report({{"benchmark", "statfilter-loop"},
                         {"scheduler", "none"},
                         {"samples_per_s", run.samplesPerSecond},
                         {"windows_passed_per_pass", run.windowsPassedPerPass},
                         {"seconds", run.seconds}});
             }}};
}

}  // namespace isochron::bench
