// A stop asked while a run starts is honoured within a few hundred nodes, not after the whole graph:
// validation and the engine's construction ask their StopPoll every kStepsPerStopPoll nodes or
// edges (Ctrl-C during the validation of a 100 000-node chain waited ~15 s). Polls are counted and
// answered by the test, so every case is exact: no clock, no signal.
#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/stop_poll.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// src -> g0 -> ... -> g(length-1) -> out.
GraphSpec gainChain(int length) {
    GraphSpec spec;
    auto node = [](std::string id, std::string type, std::map<std::string, nlohmann::json> params) {
        NodeSpec n;
        n.id = std::move(id);
        n.type = std::move(type);
        n.params = std::move(params);
        return n;
    };
    spec.nodes.push_back(node("src", "test.feed", {{"name", "polled"}, {"type", "scalar"}}));
    std::string previous = "src", previousPort = "out0";
    for (int i = 0; i < length; ++i) {
        const std::string id = "g" + std::to_string(i);
        spec.nodes.push_back(node(id, "test.gain", {}));
        spec.edges.push_back({previous, previousPort, id, "in"});
        previous = id;
        previousPort = "out";
    }
    spec.nodes.push_back(node("out", "test.collect", {{"name", "polled"}}));
    spec.edges.push_back({previous, previousPort, "out", "in0"});
    return spec;
}

/// A StopPoll that counts its calls and says stop from call `stopAt` on (0: never).
struct CountingPoll {
    int calls = 0;
    int stopAt = 0;
    StopPoll poll() {
        return [this] { return ++calls >= stopAt && stopAt > 0; };
    }
};

}  // namespace

TEST_CASE("validation asks its stop poll at least once every kStepsPerStopPoll nodes", "[stop]") {
    const GraphSpec spec = gainChain(10'000);
    CountingPoll never;
    const ValidatedGraph graph = validateGraph(spec, testRegistry(), never.poll());
    CHECK(graph.nodes.size() == 10'002);
    // Every pass over the nodes asks: at least once per kStepsPerStopPoll nodes of the first pass alone.
    CHECK(never.calls >= static_cast<int>(spec.nodes.size() / kStepsPerStopPoll));
}

TEST_CASE("validation gives up at the poll that says stop, and asks no more", "[stop]") {
    const GraphSpec spec = gainChain(10'000);
    for (const int stopAt : {1, 2, 7, 40}) {
        INFO("stop at poll " << stopAt);
        CountingPoll poll{0, stopAt};
        CHECK_THROWS_AS(validateGraph(spec, testRegistry(), poll.poll()), StartStopped);
        CHECK(poll.calls == stopAt);
    }
    SECTION("a stop already asked ends even the validation of a two-node graph at once") {
        CountingPoll poll{0, 1};
        CHECK_THROWS_AS(validateGraph(gainChain(0), testRegistry(), poll.poll()), StartStopped);
        CHECK(poll.calls == 1);
    }
}

TEST_CASE("building the engine gives up at the poll that says stop, the last one after every node started included", "[stop]") {
    const ValidatedGraph graph = validateGraph(gainChain(10'000), testRegistry());
    feedScripts()["polled"] = FeedScript{};  // the source starts with nothing to send
    CountingPoll never;
    {
        Engine engine(graph, parseSchedulerText("fifo"), never.poll());
        CHECK(engine.nodes().size() == 10'002);
    }
    CHECK(never.calls >= static_cast<int>(2 * (graph.nodes.size() / kStepsPerStopPoll)));  // creation and activation both ask
    // Among the nodes' creations, among their activations (past the first half of the polls), and the last poll.
    for (const int stopAt : {1, never.calls / 2 + 1, never.calls}) {
        INFO("stop at poll " << stopAt << " of " << never.calls);
        CountingPoll stopping{0, stopAt};
        CHECK_THROWS_AS(Engine(graph, parseSchedulerText("fifo"), stopping.poll()), StartStopped);
        CHECK(stopping.calls == stopAt);
    }
    feedScripts().clear();
}

TEST_CASE("reading a graph file gives up at the poll that says stop, and asks no more", "[stop]") {
    // A 9.5 MB graph took about a second to parse, and a stop signal meanwhile waited for all of it.
    const std::string text = serializeGraph(gainChain(10'000));
    CountingPoll never;
    CHECK(parseGraph(text, never.poll()).nodes.size() == 10'002);
    CHECK(never.calls >= static_cast<int>(2 * (10'002 / kStepsPerStopPoll)));  // the JSON values, then the nodes
    for (const int stopAt : {1, 2, 7, never.calls / 2, never.calls}) {
        INFO("stop at poll " << stopAt << " of " << never.calls);
        CountingPoll poll{0, stopAt};
        CHECK_THROWS_AS(parseGraph(text, poll.poll()), StartStopped);
        CHECK(poll.calls == stopAt);
    }
}
