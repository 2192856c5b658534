// The XStream mini-benchmarks (Table I) and EngineBench, each run from its sample graph under every
// scheduler, with the input replayed from memory.
#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"

namespace isochron::bench {
namespace {

constexpr std::int64_t kSegmentBlock = 4096;  // samples per item with SigSegs (the windows' size)
constexpr std::int64_t kSampleBlock = 1;      // one sample per item: the "no SigSegs" variant

Benchmark miniBenchmark(const std::string& name, const std::string& summary, std::int64_t block) {
    std::string variant = block == kSampleBlock ? "samples" : "segments";
    std::string label = block == kSampleBlock ? name + "-samples" : name;
    return {label, summary + (block == kSampleBlock ? " (one sample per item: no SigSegs)" : ""),
            [name, block, variant, label](const BenchContext& context, const Report& report) {
                for (const auto& scheduler : context.schedulers()) {
                    TimedRun run = runTimed(benchGraph(name, context, block), scheduler, context.seconds);
                    report({{"benchmark", label},
                            {"variant", variant},
                            {"scheduler", scheduler},
                            {"block", block},
                            {"samples_per_s", run.samplesPerSecond()},
                            {"items_per_s", static_cast<double>(run.sourceItems) / run.seconds},
                            {"seconds", run.seconds}});
                }
            }};
}

Benchmark engineBench() {
    return {"enginebench", "1000 pass-through operators in a chain: engine cost per hop",
            [](const BenchContext& context, const Report& report) {
                for (const auto& scheduler : context.schedulers()) {
                    GraphSpec spec = benchGraph("enginebench", context, kSegmentBlock);
                    TimedRun run = runTimed(spec, scheduler, context.seconds);
                    // Every item, data or progress marker, crosses every edge: the chain plus the sink's input.
                    const double hops = static_cast<double>(spec.edges.size());
                    const double items = static_cast<double>(run.sourceItems + run.sourceMarkers);
                    report({{"benchmark", "enginebench"},
                            {"scheduler", scheduler},
                            {"hops", hops},
                            {"progress_share", static_cast<double>(run.sourceMarkers) / items},
                            {"ns_per_hop", run.seconds * 1e9 / (items * hops)},
                            {"samples_per_s", run.samplesPerSecond()},
                            {"seconds", run.seconds}});
                }
            }};
}

}  // namespace

std::vector<Benchmark> graphBenchmarks() {
    const char* passchain = "10 pass-through operators in a chain";
    const char* statfilter = "stddev over 4096-sample windows > a, then mean < b";
    const char* silencefilter = "silence detector, then sync joins the voiced ranges back to the audio";
    return {
        miniBenchmark("passchain", passchain, kSegmentBlock),
        miniBenchmark("statfilter", statfilter, kSegmentBlock),
        miniBenchmark("silencefilter", silencefilter, kSegmentBlock),
        miniBenchmark("passchain", passchain, kSampleBlock),
        miniBenchmark("statfilter", statfilter, kSampleBlock),
        miniBenchmark("silencefilter", silencefilter, kSampleBlock),
        engineBench(),
    };
}

}  // namespace isochron::bench
