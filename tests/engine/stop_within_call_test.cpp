// A stop request is honoured within one call under every scheduler: once it is asked, no operator
// call starts. Ctrl-C on a graph whose operator takes 1 s per call took 2-3 s (the call in progress,
// then the next one the scheduler started after it). The test holds the engine inside one call on a
// gate it opens itself, asks the stop meanwhile, and counts the calls that followed: no clock.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <map>
#include <string>
#include <thread>
#include <utility>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/operators/operator.h"
#include "engine/schedulers/scheduler.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// What the first call of a "test.counted" node named `held` waits on: it says it has entered,
/// then waits until the test opens it.
struct CallGate {
    std::string held;
    std::promise<void> entered;
    std::promise<void> open;
};
CallGate* callGate = nullptr;                 // set by the test before the run
std::map<std::string, int>& callsByNode() {  // calls started per node id
    static std::map<std::string, int> calls;
    return calls;
}

// Counts its calls; sends each scalar on twice (so a call in progress has more to deliver when it
// returns); the node the gate names holds its first call until the test opens the gate.
class Counted final : public Operator {
protected:
    void process(int, Item&& item) override {
        const std::string node(nodeId());
        const int call = ++callsByNode()[node];
        if (call == 1 && callGate != nullptr && callGate->held == node) {
            callGate->entered.set_value();
            callGate->open.get_future().wait();
        }
        emit(0, Item(item));
        emit(0, std::move(item));
    }
};

void registerCounted() {
    static const bool registered = [] {
        OperatorDescriptor counted;
        counted.typeName = "test.counted";
        counted.category = "test";
        counted.summary = "Counts its calls and sends each scalar on twice; may hold its first call (tests only)";
        counted.inputs = {PortSpec{"in", PortType::scalar(), "values"}};
        counted.outputs = {PortSpec{"out", PortType::scalar(), "each value twice"}};
        counted.create = [] { return std::make_unique<Counted>(); };
        testRegistry().add(std::move(counted));
        return true;
    }();
    (void)registered;
}

// Three batches of four scalars: the source has more to give when the stop comes.
FeedScript fourByThree() {
    FeedScript script;
    const Timebase& tb = Timebase::get(100);
    for (int batch = 0; batch < 3; ++batch) {
        std::vector<std::pair<int, Item>> items;
        for (int i = 0; i < 4; ++i) items.push_back({0, Item::scalar(4 * batch + i, SampleRange{&tb, 4 * batch + i, 1})});
        script.batches.push_back(std::move(items));
    }
    return script;
}

}  // namespace

TEST_CASE("no operator call starts once a stop is requested, under every scheduler", "[scheduler][stop]") {
    registerCounted();
    const std::string graph = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "src", "type": "test.feed", "params": {"name": "stop", "type": "scalar"}},
      {"id": "held", "type": "test.counted"},
      {"id": "after", "type": "test.counted"},
      {"id": "out", "type": "test.collect", "params": {"name": "stop"}}],
      "edges": [{"from": "src.out0", "to": "held.in"}, {"from": "held.out", "to": "after.in"}, {"from": "after.out", "to": "out.in0"}]})";
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        feedScripts()["stop"] = fourByThree();
        callsByNode().clear();
        const ValidatedGraph validated = validateGraph(parseGraph(graph), testRegistry());
        Engine engine(validated, parseSchedulerText(scheduler));
        CallGate gate;
        gate.held = "held";
        callGate = &gate;
        RunOutcome outcome;
        std::thread runner([&] { outcome = engine.run(); });
        const bool entered = gate.entered.get_future().wait_for(std::chrono::seconds(20)) == std::future_status::ready;
        engine.requestStop();  // while the held call is in progress
        gate.open.set_value();
        runner.join();
        callGate = nullptr;
        REQUIRE(entered);
        CHECK(outcome.stopped);
        CHECK(callsByNode()["held"] == 1);  // the call in progress, and no other
        CHECK(callsByNode()["after"] == 0);  // what it sent on was not delivered by a call
        CHECK(collections()["stop"].items[0].empty());
    }
    feedScripts().clear();
    collections().clear();
}
