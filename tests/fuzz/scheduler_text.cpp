// Fuzz target: scheduler strings (`isochron-run --scheduler NAME:key=value,...`, the editor's
// scheduler box), then a run of a small graph under the scheduler they give.
//
// Input: the scheduler text. Properties: a refused text is an std::invalid_argument with a message;
// an accepted one runs the graph (noise in 32-sample blocks, rewindowed and filtered on one branch,
// passed through on the other) to its end with the same items and samples at every node as `df`.
#include <string>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/scheduler.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

GraphSpec referenceGraph() {
    return parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [
        {"id": "noise", "type": "generators.signal_generator",
         "params": {"waveform": "noise", "rate": 8000, "duration": 0.05, "block": 32}},
        {"id": "window", "type": "segments.rewindow", "params": {"window": 64, "hop": 48}},
        {"id": "loud", "type": "stats.stddev_filter", "params": {"threshold": 0.45, "pass": "above"}},
        {"id": "pass", "type": "segments.pass_through"},
        {"id": "windows", "type": "io.null_sink"},
        {"id": "blocks", "type": "io.null_sink"}],
      "edges": [
        {"from": "noise.out", "to": "window.in"}, {"from": "window.out", "to": "loud.in"},
        {"from": "loud.out", "to": "windows.in"},
        {"from": "noise.out", "to": "pass.in"}, {"from": "pass.out", "to": "blocks.in"}]})");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const GraphSpec graph = referenceGraph();
    static const fuzz::GraphRun reference = fuzz::runGraph(graph, "df");
    fuzz::require(reference.error.empty(), "the reference graph fails under df: " + reference.error);
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        createScheduler(parseSchedulerText(text));
    } catch (const std::invalid_argument& e) {
        fuzz::require(std::string_view(e.what()).size() > 0, "a refused scheduler without a message");
        return 0;
    }
    const fuzz::GraphRun run = fuzz::runGraph(graph, text);
    fuzz::require(run.error.empty(), "the reference graph fails under '" + text + "': " + run.error);
    fuzz::require(run.itemsIn == reference.itemsIn && run.samplesIn == reference.samplesIn,
                  "scheduler '" + text + "' gives other results than df");
    return 0;
}
