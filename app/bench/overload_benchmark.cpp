// XStream Fig. 7: sustained throughput as the offered load grows past capacity, without and with
// source rate control. The source paces a recording at a multiple of real time and reads each block
// fresh from the file (as a sensor delivers new data), so work left queued holds real memory.
#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"

namespace isochron::bench {
namespace {

constexpr std::int64_t kBlock = 4096;
constexpr int kRateControlBurst = 4;

GraphSpec pacedGraph(const BenchContext& context, double pace) {
    GraphSpec spec = benchGraph("statfilter", context, kBlock);
    NodeSpec* source = spec.findNode("source");
    source->params["preload"] = false;
    source->params["pace"] = pace;
    return spec;
}

}  // namespace

std::vector<Benchmark> overloadBenchmarks() {
    return {{"overload", "statfilter throughput and memory vs offered load, without and with rate control (XStream Fig. 7)",
             [](const BenchContext& context, const Report& report) {
                 std::vector<std::string> schedulers = context.scheduler ? std::vector<std::string>{*context.scheduler}
                                                                         : std::vector<std::string>{"fifo", "df"};
                 for (const auto& scheduler : schedulers) {
                     // Capacity: the same graph unpaced, with rate control.
                     TimedRun capacityRun = runTimed(pacedGraph(context, 0), scheduler + ":burst=" + std::to_string(kRateControlBurst),
                                                     context.seconds / 2);
                     const double capacity = static_cast<double>(capacityRun.firstHopSamples) / capacityRun.seconds;
                     const double inputRate = 44100.0;
                     for (double load : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) {
                         for (int burst : {0, kRateControlBurst}) {
                             double pace = load * capacity / inputRate;
                             std::string spec = scheduler + ":burst=" + std::to_string(burst);
                             TimedRun run = runTimed(pacedGraph(context, pace), spec, context.seconds / 2);
                             report({{"benchmark", "overload"},
                                      {"scheduler", scheduler},
                                      {"rate_control", burst > 0},
                                      {"burst", burst},
                                      {"offered_load", load},
                                      {"offered_samples_per_s", load * capacity},
                                      {"samples_per_s", static_cast<double>(run.firstHopSamples) / run.seconds},
                                      {"peak_live_mb", static_cast<double>(run.peakLiveBytes) / 1e6}});
                         }
                     }
                 }
             }}};
}

}  // namespace isochron::bench
