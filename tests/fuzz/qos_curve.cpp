// Fuzz target: QoS curves, the latency -> utility graphs a graph file gives its outputs ("qos":
// {"points": [[ms, utility], ...]}), then a run under the QoS-driven schedulers that read them.
// Isochron has no C++ reader of its telemetry or report files (the editor takes snapshots from
// memory; scripts read reports), so this is the parser that stands in for them: see docs/fuzzing.md.
//
// Input: the "qos" value as JSON text. Properties: a refused curve is an std::invalid_argument with
// a message; an accepted one gives utilities within [0, 1], slack >= 0 and finite slopes at any
// latency, writes JSON that reads back equal, and an output using it runs to its end under `qos`
// and `qos-bucket` with every item delivered.
#include <cmath>
#include <string>

#include "engine/graph/graph_file.h"
#include "engine/qos/qos_graph.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

constexpr int kItems = 20;  // blocks the generator emits

/// A generator of kItems blocks into an output whose QoS graph is `curve`.
GraphSpec graphWithCurve(const nlohmann::json& curve) {
    GraphSpec graph = parseGraph(R"({"format": "isochron-graph/1",
      "nodes": [
        {"id": "tone", "type": "generators.signal_generator", "params": {"rate": 1000, "duration": 0.32, "block": 16}},
        {"id": "pass", "type": "segments.pass_through"},
        {"id": "out", "type": "io.null_sink"}],
      "edges": [{"from": "tone.out", "to": "pass.in"}, {"from": "pass.out", "to": "out.in"}]})");
    graph.findNode("out")->extra["qos"] = curve;
    return graph;
}

void checkCurve(const QosGraph& qos) {
    std::vector<double> latencies = {-1.0, 0.0, 1e-300, 1e300, std::numeric_limits<double>::max()};
    const auto& points = qos.points();
    for (std::size_t i = 0; i < points.size(); ++i) {
        latencies.push_back(points[i].latencyMs);
        latencies.push_back(std::nextafter(points[i].latencyMs, 0.0));
        if (i > 0) latencies.push_back(points[i - 1].latencyMs + (points[i].latencyMs - points[i - 1].latencyMs) / 2);
    }
    for (double latency : latencies) {
        const double utility = qos.utility(latency);
        fuzz::require(utility >= 0 && utility <= 1, "a utility outside [0, 1]");
        fuzz::require(std::isfinite(qos.gradient(latency)), "a slope that is not finite");
        fuzz::require(qos.slack(latency) >= 0, "a negative slack");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const nlohmann::json curve = nlohmann::json::parse(data, data + size, nullptr, false);
    if (curve.is_discarded()) return 0;
    std::optional<QosGraph> qos;
    try {
        qos = QosGraph::fromJson(curve);
    } catch (const std::invalid_argument& e) {
        fuzz::require(std::string_view(e.what()).size() > 0, "a refused QoS curve without a message");
        return 0;
    }
    checkCurve(*qos);
    fuzz::require(QosGraph::fromJson(qos->toJson()) == *qos, "a QoS curve does not read back from its JSON");
    const GraphSpec graph = graphWithCurve(curve);
    for (const char* scheduler : {"qos", "qos-bucket"}) {
        const fuzz::GraphRun run = fuzz::runGraph(graph, scheduler);
        fuzz::require(run.error.empty(), std::string("an accepted QoS curve fails under ") + scheduler + ": " + run.error);
        fuzz::require(run.itemsIn.at("out") == kItems, std::string("an output with this QoS curve lost items under ") + scheduler);
    }
    return 0;
}
