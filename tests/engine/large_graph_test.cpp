// Graph size and depth are not limits of the engine's algorithms: a 100 000-node chain validates,
// has its cycles marked and runs (no recursion as deep as the graph), the QoS schedulers make progress
// on a 10 000-node chain (their per-box costs are linear in the chain, not quadratic), and loops are
// marked exactly where an independent reachability check finds them. Scheduler set-up and QoS
// decisions are measured by the work they count (SchedulerStats), not by wall time.
#include <catch2/catch.hpp>

#include <random>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/qos_priority.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// src -> g0 -> g1 -> ... -> g(n-1) -> out, every gain 1.
GraphSpec gainChain(int length, const std::string& name) {
    GraphSpec spec;
    auto node = [](std::string id, std::string type, std::map<std::string, nlohmann::json> params) {
        NodeSpec n;
        n.id = std::move(id);
        n.type = std::move(type);
        n.params = std::move(params);
        return n;
    };
    spec.nodes.push_back(node("src", "test.feed", {{"name", name}, {"type", "scalar"}}));
    std::string previous = "src";
    std::string previousPort = "out0";
    for (int i = 0; i < length; ++i) {
        const std::string id = "g" + std::to_string(i);
        spec.nodes.push_back(node(id, "test.gain", {}));
        spec.edges.push_back({previous, previousPort, id, "in"});
        previous = id;
        previousPort = "out";
    }
    spec.nodes.push_back(node("out", "test.collect", {{"name", name}}));
    spec.edges.push_back({previous, previousPort, "out", "in0"});
    return spec;
}

// src -> `width` null sinks, all on the source's one output.
GraphSpec fanOut(int width, const std::string& name) {
    GraphSpec spec;
    NodeSpec src;
    src.id = "src";
    src.type = "test.feed";
    src.params = {{"name", name}, {"type", "scalar"}};
    spec.nodes.push_back(src);
    for (int i = 0; i < width; ++i) {
        NodeSpec sink;
        sink.id = "s" + std::to_string(i);
        sink.type = "io.null_sink";
        spec.nodes.push_back(sink);
        spec.edges.push_back({"src", "out0", sink.id, "in"});
    }
    return spec;
}

FeedScript scalars(int count) {
    const Timebase& tb = Timebase::get(100);
    FeedScript script;
    for (int i = 0; i < count; ++i) script.batches.push_back({{0, Item::scalar(i, SampleRange{&tb, i, 1})}});
    return script;
}

}  // namespace

TEST_CASE("a 100 000-node chain validates, is checked for cycles and runs", "[large]") {
    // The recursive cycle marking overflowed the stack here (SIGSEGV, no message).
    const GraphSpec spec = gainChain(100'000, "long");
    feedScripts()["long"] = scalars(3);
    Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText("fifo"));
    for (const NodeContext* node : engine.nodes()) CHECK_FALSE(node->inCycle);
    REQUIRE(engine.run().completed);
    const auto& got = collections()["long"].items[0];
    REQUIRE(got.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(got[static_cast<std::size_t>(i)].value() == i);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("qos and qos-bucket make progress on a 10 000-node chain", "[large][qos]") {
    // Each box's downstream set was stored and re-summed (quadratic: 680 MB, and refreshing the
    // costs every 20 ms took longer than 20 ms, so no item moved).
    const GraphSpec spec = gainChain(10'000, "qos-chain");
    for (const std::string scheduler : {"qos", "qos-bucket"}) {
        INFO("scheduler " << scheduler);
        feedScripts()["qos-chain"] = scalars(20);
        Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText(scheduler));
        REQUIRE(engine.run().completed);
        CHECK(collections()["qos-chain"].items[0].size() == 20);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("superbox set-up is linear in a 20 000-box chain, for every traversal", "[large][superbox]") {
    // Each box's downstream set D(b) was stored (n^2/2 entries: 1.8 GB for 30 000 boxes), and the
    // Min-Latency and Min-Memory plans listed every turn's followers as well.
    const int length = 20'000;
    const GraphSpec spec = gainChain(length, "superbox-chain");
    for (const std::string scheduler : {"superbox-mc", "superbox-ml", "superbox-mm"}) {
        INFO("scheduler " << scheduler);
        feedScripts()["superbox-chain"] = scalars(3);
        Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText(scheduler));
        // The chain's one tree lists each box once with its one successor, and a plan has a turn
        // per box: a few entries per box.
        CHECK(engine.scheduler().stats().setupEntries <= 8 * static_cast<std::uint64_t>(length + 1));
        REQUIRE(engine.run().completed);
        const auto& got = collections()["superbox-chain"].items[0];
        REQUIRE(got.size() == 3);
        for (int i = 0; i < 3; ++i) CHECK(got[static_cast<std::size_t>(i)].value() == i);
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a qos decision examines a few dozen of 20 000 ready boxes, not all of them", "[large][qos]") {
    // Each decision computed the priority of every ready box: one source feeding 20 000 sinks did
    // not finish in 300 s.
    const int width = 20'000;
    feedScripts()["qos-fan"] = scalars(2);
    Engine engine(validateGraph(fanOut(width, "qos-fan"), testRegistry()), parseSchedulerText("qos"));
    REQUIRE(engine.run().completed);
    const SchedulerStats& stats = engine.scheduler().stats();
    REQUIRE(stats.decisions >= static_cast<std::uint64_t>(width));
    // A decision takes a box out of two heaps of up to 20 000 boxes (by priority, by waiting time),
    // each sifted ~2 log2(20 000) = 29 comparisons deep: about 80 measured, where the scan computed
    // 10 000 priorities per decision on average.
    CHECK(stats.boxesExamined <= 200 * stats.decisions);
    feedScripts().clear();
}

TEST_CASE("QoS costs downstream of each box on a long chain: the sum of the boxes after it", "[large][qos]") {
    const int length = 10'000;
    feedScripts()["costs"] = FeedScript{};
    Engine engine(validateGraph(gainChain(length, "costs"), testRegistry()), parseSchedulerText("qos"));
    // Box i costs (i + 1) ns; from box k the items still pass boxes k..n-1 and the output (all
    // together less than the default deadline, 100 ms, so each slack is exact).
    const auto& nodes = engine.nodes();  // graph order: src, g0 .. g(n-1), out
    REQUIRE(nodes[1]->id == "g0");
    REQUIRE(nodes[static_cast<std::size_t>(length)]->id == "g9999");
    for (int i = 0; i < length; ++i) nodes[static_cast<std::size_t>(i) + 1]->costEstimateNs = 1.0 * (i + 1);
    engine.findNode("out")->costEstimateNs = 0;
    QosPriorities priorities;
    priorities.prepare(engine.nodes());
    // The output's QoS graph is the default: flat to the deadline, so slack = deadline - eol.
    const double deadlineMs = engine.findNode("out")->sink->qos.points()[1].latencyMs;
    for (int k : {0, 1, 17, 4999, 9998, 9999}) {
        INFO("box g" << k);
        double expectedNs = 0;
        for (int i = k; i < length; ++i) expectedNs += 1.0 * (i + 1);
        REQUIRE(expectedNs / 1e6 < deadlineMs);
        CHECK(priorities.priorityAt(*nodes[static_cast<std::size_t>(k) + 1], 0).slackMs == Approx(deadlineMs - expectedNs / 1e6));
    }
    feedScripts().clear();
}

TEST_CASE("nodes on a cycle are marked, the others not (checked against reachability)", "[large][cycle]") {
    // Random graphs of boxes with up to four inputs; a node is on a cycle iff it can reach itself.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 40; ++trial) {
        INFO("trial " << trial);
        const int count = 2 + static_cast<int>(rng() % 30);
        // Input 0 of every box is fed by the source (so every output's type is known); up to three
        // random edges land on inputs 1..3.
        GraphSpec spec;
        NodeSpec src;
        src.id = "src";
        src.type = "test.feed";
        src.params = {{"name", "none"}, {"type", "scalar"}, {"outputs", count}};
        spec.nodes.push_back(src);
        std::vector<std::vector<int>> next(static_cast<std::size_t>(count));
        std::vector<int> inputs(static_cast<std::size_t>(count), 1);
        for (int i = 0; i < count; ++i) spec.edges.push_back({"src", "out" + std::to_string(i), "n" + std::to_string(i), "in0"});
        for (int e = 0; e < count + static_cast<int>(rng() % 10); ++e) {
            const int from = static_cast<int>(rng() % count), to = static_cast<int>(rng() % count);
            int& used = inputs[static_cast<std::size_t>(to)];
            if (used == 4) continue;
            spec.edges.push_back({"n" + std::to_string(from), "out", "n" + std::to_string(to), "in" + std::to_string(used++)});
            next[static_cast<std::size_t>(from)].push_back(to);
        }
        for (int i = 0; i < count; ++i) {
            NodeSpec n;
            n.id = "n" + std::to_string(i);
            n.type = "workload.universal_box";
            n.params["inputs"] = inputs[static_cast<std::size_t>(i)];
            spec.nodes.push_back(n);
        }
        feedScripts()["none"] = FeedScript{};
        Engine engine(validateGraph(spec, testRegistry()), parseSchedulerText("df"));
        for (int v = 0; v < count; ++v) {
            std::vector<char> seen(static_cast<std::size_t>(count), 0);
            std::vector<int> pending(next[static_cast<std::size_t>(v)]);
            bool reachesItself = false;
            while (!pending.empty()) {
                const int w = pending.back();
                pending.pop_back();
                if (w == v) reachesItself = true;
                if (seen[static_cast<std::size_t>(w)]) continue;
                seen[static_cast<std::size_t>(w)] = 1;
                pending.insert(pending.end(), next[static_cast<std::size_t>(w)].begin(), next[static_cast<std::size_t>(w)].end());
            }
            INFO("node n" << v);
            CHECK(engine.findNode("n" + std::to_string(v))->inCycle == reachesItself);
        }
    }
    feedScripts().clear();
}
