// Superbox traversals against the worked example of Aurora's figure 4, output trees as the
// engine finds them in a real graph, and D(b) walked (not stored) against plain reachability.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/output_trees.h"
#include "engine/schedulers/superbox.h"
#include "engine/schedulers/superbox_traversal.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// Figure 4: b1 feeds the output; b2 and b6 feed b1; b4 and b3 feed b2; b5 feeds b3.
// Post-order (Min-Cost): b4 b5 b3 b2 b6 b1, so indices 0..5 stand for those boxes.
enum Box { b4, b5, b3, b2, b6, b1 };
const char* kNames[] = {"b4", "b5", "b3", "b2", "b6", "b1"};

OutputTree figureFourTree() {
    // Traversals only look at the shape.
    return makeOutputTree(nullptr, std::vector<NodeContext*>(6, nullptr), {{b2}, {b3}, {b2}, {b1}, {b1}, {}});
}

// D(b) in post-order, as the walk visits it.
std::vector<int> downstreamOf(const OutputTree& tree, int box) {
    std::vector<int> found;
    DownstreamWalk walk;
    walk.run(tree, box, [&](int k) {
        found.push_back(k);
        return true;
    });
    return found;
}

// D(b) by plain reachability, sorted.
std::vector<int> reachableFrom(const std::vector<std::vector<int>>& successors, int box) {
    std::vector<char> seen(successors.size(), 0);
    std::vector<int> pending{box}, found;
    while (!pending.empty()) {
        const int k = pending.back();
        pending.pop_back();
        if (seen[static_cast<std::size_t>(k)]) continue;
        seen[static_cast<std::size_t>(k)] = 1;
        found.push_back(k);
        for (int next : successors[static_cast<std::size_t>(k)]) pending.push_back(next);
    }
    std::sort(found.begin(), found.end());
    return found;
}

std::string namesOf(const std::vector<int>& calls) {
    std::string s;
    for (int call : calls) s += (s.empty() ? "" : " ") + std::string(kNames[call]);
    return s;
}

// A box's estimate from the paper's (selectivity, cost) pairs.
BoxEstimate box(double selectivity, double cost) {
    BoxEstimate e;
    e.selectivity = selectivity;
    e.costNs = cost;
    e.itemBytes = 1;
    return e;
}

}  // namespace

TEST_CASE("Min-Cost runs each box once, in post-order", "[superbox]") {
    std::vector<BoxEstimate> estimates(6, box(1, 1));
    const OutputTree tree = figureFourTree();
    CHECK(namesOf(boxCalls(tree, superboxTraversal(tree, Traversal::MinCost, estimates))) == "b4 b5 b3 b2 b6 b1");
}

TEST_CASE("Min-Latency follows each box by its downstream, cheapest output cost first (figure 4)", "[superbox]") {
    std::vector<BoxEstimate> estimates(6, box(1, 1));
    const OutputTree tree = figureFourTree();
    const auto plan = superboxTraversal(tree, Traversal::MinLatency, estimates);
    CHECK(namesOf(boxCalls(tree, plan)) == "b1 b2 b1 b6 b1 b4 b2 b1 b3 b2 b1 b5 b3 b2 b1");
    // Every box has exactly one turn of its own.
    REQUIRE(plan.turns.size() == 6);
    CHECK(plan.turns[0] == b1);
    DownstreamWalk walk;
    int followers = 0;
    forEachFollower(tree, plan, b1, walk, [&](int) { ++followers; });
    CHECK(followers == 0);
}

TEST_CASE("Min-Memory orders by memory reduction rate (figure 4's example)", "[superbox]") {
    std::vector<BoxEstimate> estimates(6);
    estimates[b1] = box(0.9, 2);
    estimates[b2] = box(0.4, 2);
    estimates[b3] = box(0.5, 1);
    estimates[b4] = box(1.0, 2);
    estimates[b5] = box(0.4, 3);
    estimates[b6] = box(0.6, 1);
    const OutputTree tree = figureFourTree();
    CHECK(namesOf(boxCalls(tree, superboxTraversal(tree, Traversal::MinMemory, estimates))) == "b3 b6 b2 b5 b3 b2 b1 b4 b2 b1");
    CHECK(memoryReductionRate(estimates[b3]) == Approx(0.5));
    CHECK(memoryReductionRate(estimates[b4]) == 0.0);
}

TEST_CASE("output cost weighs each downstream box by the items that reach the output", "[superbox]") {
    std::vector<BoxEstimate> estimates(6);
    estimates[b1] = box(0.5, 4);
    estimates[b2] = box(0.25, 8);
    estimates[b3] = box(1.0, 2);
    estimates[b4] = box(1.0, 1);
    estimates[b5] = box(0.5, 3);
    estimates[b6] = box(0.0, 5);
    const auto costs = outputCosts(figureFourTree(), estimates);
    // By hand: o_sel(b1) = .5, o_sel(b2) = .125, o_sel(b3) = .125, o_sel(b5) = .0625.
    CHECK(costs[b1] == Approx(4 / 0.5));
    CHECK(costs[b2] == Approx(8 / 0.125 + 4 / 0.5));
    CHECK(costs[b3] == Approx(2 / 0.125 + 8 / 0.125 + 4 / 0.5));
    CHECK(costs[b5] == Approx(3 / 0.0625 + 2 / 0.125 + 8 / 0.125 + 4 / 0.5));
    // A box that passes nothing never produces an output: infinitely expensive per output.
    CHECK(std::isinf(costs[b6]));
    // Min-Latency therefore gives b6 its turn last.
    CHECK(superboxTraversal(figureFourTree(), Traversal::MinLatency, estimates).turns.back() == b6);
}

TEST_CASE("output trees of a real graph: post-order, downstream sets, shared boxes", "[superbox]") {
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "scalar"}},
        {"id": "b", "type": "test.feed", "params": {"name": "b", "type": "scalar"}},
        {"id": "x", "type": "test.gain"},
        {"id": "y", "type": "test.gain"},
        {"id": "m", "type": "test.merge"},
        {"id": "tap", "type": "test.collect", "params": {"name": "tap"}},
        {"id": "out", "type": "test.collect", "params": {"name": "out"}}
      ],
      "edges": [
        {"from": "a.out0", "to": "x.in"}, {"from": "b.out0", "to": "y.in"},
        {"from": "x.out", "to": "m.a"}, {"from": "y.out", "to": "m.b"},
        {"from": "m.out", "to": "out.in0"}, {"from": "x.out", "to": "tap.in0"}
      ]
    })";
    feedScripts()["a"] = FeedScript{};
    feedScripts()["b"] = FeedScript{};
    Engine engine(validateGraph(parseGraph(graph), testRegistry()), parseSchedulerText("superbox-mc"));
    const auto trees = findOutputTrees(engine.nodes());
    REQUIRE(trees.size() == 2);
    auto ids = [](const OutputTree& t) {
        std::string s;
        for (const NodeContext* n : t.postOrder) s += (s.empty() ? "" : " ") + n->id;
        return s;
    };
    CHECK(ids(trees[0]) == "x tap");
    CHECK(ids(trees[1]) == "x y m out");  // m's feeders in port order: a (x) then b (y)
    CHECK(downstreamOf(trees[1], 0) == std::vector<int>{0, 2, 3});
    CHECK(downstreamOf(trees[1], 1) == std::vector<int>{1, 2, 3});
    CHECK(downstreamOf(trees[1], 3) == std::vector<int>{3});
    CHECK(trees[1].indexOf(engine.findNode("m")) == 2);
    CHECK(trees[1].indexOf(engine.findNode("tap")) == -1);
    CHECK_FALSE(treesAreDisjoint(trees));  // x feeds both outputs
}

TEST_CASE("D(b) is walked in post-order where branches meet again and around loops", "[superbox]") {
    // Random trees: box i sends to one later box (a path to the output), to several (branches that
    // meet again), or also to earlier ones (a loop inside the tree).
    std::mt19937 rng(11);
    for (int trial = 0; trial < 60; ++trial) {
        INFO("trial " << trial);
        const int boxes = 2 + static_cast<int>(rng() % 25);
        const int shape = trial % 3;  // 0 path, 1 branches, 2 loops
        std::vector<std::vector<int>> successors(static_cast<std::size_t>(boxes));
        for (int i = 0; i + 1 < boxes; ++i) {
            auto& next = successors[static_cast<std::size_t>(i)];
            next.push_back(i + 1 + static_cast<int>(rng() % static_cast<unsigned>(boxes - i - 1)));
            for (int extra = shape == 0 ? 0 : static_cast<int>(rng() % 3); extra > 0; --extra) {
                const int to = shape == 2 ? static_cast<int>(rng() % static_cast<unsigned>(boxes))
                                          : i + 1 + static_cast<int>(rng() % static_cast<unsigned>(boxes - i - 1));
                if (std::find(next.begin(), next.end(), to) == next.end()) next.push_back(to);
            }
        }
        const OutputTree tree = makeOutputTree(nullptr, std::vector<NodeContext*>(static_cast<std::size_t>(boxes), nullptr), successors);
        if (shape == 0) CHECK(tree.downstreamIsPath);
        std::vector<BoxEstimate> estimates;
        for (int i = 0; i < boxes; ++i) estimates.push_back(box(0.25 * static_cast<double>(1 + rng() % 4), 1.0 + static_cast<double>(rng() % 9)));
        const auto costs = outputCosts(tree, estimates);
        for (int b = 0; b < boxes; ++b) {
            INFO("box " << b);
            const auto reached = reachableFrom(successors, b);
            CHECK(downstreamOf(tree, b) == reached);
            // The definition: output_cost(b) = sum over k in D(b) of cost(k) / o_sel(k).
            double expected = 0;
            for (int k : reached) {
                double selectivity = 1;
                for (int d : reachableFrom(successors, k)) selectivity *= estimates[static_cast<std::size_t>(d)].selectivity;
                expected += estimates[static_cast<std::size_t>(k)].costNs / selectivity;
            }
            CHECK(costs[static_cast<std::size_t>(b)] == Approx(expected));
        }
    }
}

TEST_CASE("superbox worker pool: disjoint trees run on several threads with the same results", "[superbox]") {
    const char* graph = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "a", "type": "test.feed", "params": {"name": "pool-a", "type": "scalar"}},
        {"id": "b", "type": "test.feed", "params": {"name": "pool-b", "type": "scalar"}},
        {"id": "xa", "type": "test.gain", "params": {"gain": 2}},
        {"id": "xb", "type": "test.gain", "params": {"gain": -3}},
        {"id": "outa", "type": "test.collect", "params": {"name": "pool-a"}},
        {"id": "outb", "type": "test.collect", "params": {"name": "pool-b"}}
      ],
      "edges": [
        {"from": "a.out0", "to": "xa.in"}, {"from": "xa.out", "to": "outa.in0"},
        {"from": "b.out0", "to": "xb.in"}, {"from": "xb.out", "to": "outb.in0"}
      ]
    })";
    const Timebase& tb = Timebase::get(100);
    for (const std::string scheduler : {"superbox-mc:workers=2", "superbox-ml:workers=3", "superbox-mm:workers=2,burst=1"}) {
        INFO("scheduler " << scheduler);
        for (const char* name : {"pool-a", "pool-b"}) {
            FeedScript script;
            for (int b = 0; b < 300; ++b) {
                script.batches.push_back({{0, Item::scalar(b, SampleRange{&tb, 10 * b, 10})}, {0, Item::progress(tb.timeOf(10 * b + 10))}});
            }
            feedScripts()[name] = std::move(script);
        }
        Engine engine(validateGraph(parseGraph(graph), testRegistry()), parseSchedulerText(scheduler));
        REQUIRE(dynamic_cast<const SuperboxScheduler&>(engine.scheduler()).parallel());
        REQUIRE(engine.run().completed);
        const auto& a = collections()["pool-a"];
        const auto& b = collections()["pool-b"];
        REQUIRE(a.finished);
        REQUIRE(b.finished);
        REQUIRE(a.items[0].size() == 300);
        REQUIRE(b.items[0].size() == 300);
        for (int i = 0; i < 300; ++i) {
            CHECK(a.items[0][static_cast<std::size_t>(i)].value() == 2.0 * i);
            CHECK(b.items[0][static_cast<std::size_t>(i)].value() == -3.0 * i);
        }
    }
}
