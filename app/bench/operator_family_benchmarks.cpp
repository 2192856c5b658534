// Issue 18, channels/, math/ and level/: one operator of each kind under df, fed the input replayed
// from memory in 4096-sample blocks (every input of a multi-input operator fed the same channel,
// shared by reference), in samples per second of engine-thread CPU per channel.
// scripts/bench_operator_families.py runs this beside numpy doing the same operations in one run.
#include <string>
#include <vector>

#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"
#include "engine/graph/graph_spec.h"

namespace isochron::bench {
namespace {

/// One measured operator: its type, parameters, and the input and output ports wired.
struct FamilyCase {
    std::string label;
    std::string type;
    nlohmann::json params;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
};

const std::vector<FamilyCase>& familyCases() {
    static const std::vector<FamilyCase> cases{
        {"gain -6 dB", "channels.gain", {{"gain_db", -6.0}}, {"in0"}, {"out0"}},
        {"select (by reference)", "channels.select", {{"inputs", 2}, {"channels", {1.0, 0.0}}}, {"in0", "in1"}, {"out0", "out1"}},
        {"mix 4 -> 2", "channels.mix", {{"inputs", 4}, {"outputs", 2}, {"matrix", {0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5}}},
         {"in0", "in1", "in2", "in3"}, {"out0", "out1"}},
        {"merge 2 (interleave)", "channels.merge", {{"channels", 2}}, {"in0", "in1"}, {"out"}},
        {"add", "math.add", nlohmann::json::object(), {"a", "b"}, {"out"}},
        {"multiply", "math.multiply", nlohmann::json::object(), {"a", "b"}, {"out"}},
        {"scale", "math.scale", {{"factor", 0.5}, {"offset", 0.1}}, {"in"}, {"out"}},
        {"decibels", "math.decibels", nlohmann::json::object(), {"in"}, {"out"}},
        {"expression a*0.5 + b", "math.expression", {{"inputs", 2}, {"expression", "a*0.5 + b"}}, {"in0", "in1"}, {"out"}},
        {"expression sqrt(a^2 + b^2)", "math.expression", {{"inputs", 2}, {"expression", "sqrt(a^2 + b^2)"}}, {"in0", "in1"}, {"out"}},
        {"rms meter", "level.rms_meter", nlohmann::json::object(), {"in"}, {"level"}},
        {"envelope follower", "level.envelope_follower", nlohmann::json::object(), {"in"}, {"envelope"}},
        {"agc", "level.agc", nlohmann::json::object(), {"in"}, {"out"}},
        {"noise gate", "level.noise_gate", nlohmann::json::object(), {"in"}, {"out"}},
        {"onset detector", "level.onset_detector", nlohmann::json::object(), {"in"}, {"onsets"}},
    };
    return cases;
}

void operatorFamiliesBenchmark(const BenchContext& context, const Report& report) {
    for (const FamilyCase& c : familyCases()) {
        GraphSpec graph;
        graph.nodes.push_back(NodeSpec{"source", "io.audio_file_source",
                                       {{"path", context.input.string()}, {"preload", true}, {"loops", 0}, {"block", 4096}, {"channels", 1}},
                                       std::nullopt, nlohmann::json::object()});
        graph.nodes.push_back(NodeSpec{"op", c.type, c.params, std::nullopt, nlohmann::json::object()});
        for (const std::string& input : c.inputs) graph.edges.push_back(EdgeSpec{"source", "out0", "op", input});
        for (std::size_t k = 0; k < c.outputs.size(); ++k) {
            const std::string sink = "sink" + std::to_string(k);
            graph.nodes.push_back(NodeSpec{sink, "io.null_sink", {}, std::nullopt, nlohmann::json::object()});
            graph.edges.push_back(EdgeSpec{"op", c.outputs[k], sink, "in"});
        }
        const TimedRun run = runTimed(graph, "df", context.seconds);
        report({{"benchmark", "operator-families"},
                {"scheduler", "df"},
                {"operator", c.type},
                {"case", c.label},
                {"samples_per_s", run.samplesPerCpuSecond()}});
    }
}

}  // namespace

std::vector<Benchmark> operatorFamilyBenchmarks() {
    return {{"operator-families", "channels/, math/ and level/ operators, one at a time under df, samples/s per channel (issue 18)",
             operatorFamiliesBenchmark}};
}

}  // namespace isochron::bench
