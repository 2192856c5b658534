// The qos scheduler's ready boxes pick what scanning every ready box picks: the same box, with the
// same tie-breaking (the first best in ready-list order) and the same starvation bound, while boxes
// become ready, receive items, age across their QoS graphs' points and have their costs refreshed.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <string>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/qos_priority.h"
#include "engine/schedulers/qos_ready_boxes.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr TimeNs kMs = 1'000'000;

// src -> b0..b(n-1) -> three outputs with different QoS graphs; every fifth box also feeds a second
// output (its priority sums over both), every seventh none.
std::string numbered(const char* prefix, int number) {
    std::string name(prefix);
    name += std::to_string(number);
    return name;
}

std::string boxesBeforeThreeOutputs(int boxes) {
    std::ostringstream nodes, edges;
    nodes << R"({"id": "src", "type": "test.feed", "params": {"name": "ready-src", "type": "scalar", "outputs": )" << boxes << "}}";
    int inputs[3] = {0, 0, 0};
    const char* separator = "";
    auto edge = [&](const std::string& from, const std::string& to) {
        edges << separator << R"({"from": ")" << from << R"(", "to": ")" << to << R"("})";
        separator = ", ";
    };
    for (int i = 0; i < boxes; ++i) {
        const std::string box = numbered("b", i);
        nodes << R"(, {"id": ")" << box << R"(", "type": "test.gain"})";
        edge(numbered("src.out", i), box + ".in");
        if (i % 7 == 6) continue;
        const int output = i % 3;
        edge(box + ".out", numbered("o", output) + numbered(".in", inputs[output]++));
        if (i % 5 == 0) {
            const int second = (output + 1) % 3;
            edge(box + ".out", numbered("o", second) + numbered(".in", inputs[second]++));
        }
    }
    nodes << R"(, {"id": "o0", "type": "test.collect", "params": {"name": "o0", "inputs": 0}, "qos": [[0, 1], [5, 1], [50, 0]]})";
    nodes << R"(, {"id": "o1", "type": "test.collect", "params": {"name": "o1", "inputs": 0}, "qos": [[0, 1], [20, 1], [30, 0.5], [200, 0]]})";
    nodes << R"(, {"id": "o2", "type": "test.collect", "params": {"name": "o2", "inputs": 0}})";
    std::ostringstream graph;
    graph << R"({"format": "isochron-graph/1", "nodes": [)" << nodes.str() << R"(], "edges": [)" << edges.str() << "]}";
    return graph.str();
}

// The decision as the qos scheduler made it before: every ready box's priority, the first best in
// ready-list order, unless the oldest has waited too long.
std::size_t scan(const QosPriorities& priorities, const std::vector<NodeContext*>& ready, const std::vector<std::uint64_t>& since,
                 std::uint64_t decisions, TimeNs now) {
    std::size_t best = 0, oldest = 0;
    BoxPriority bestPriority = priorities.priority(*ready[0], now);
    for (std::size_t i = 1; i < ready.size(); ++i) {
        const BoxPriority p = priorities.priority(*ready[i], now);
        if (p > bestPriority) {
            best = i;
            bestPriority = p;
        }
        if (since[i] < since[oldest]) oldest = i;
    }
    if (decisions - since[oldest] > kMaxDecisionsPassedOverPerReadyBox * ready.size()) best = oldest;
    return best;
}

}  // namespace

TEST_CASE("qos ready boxes pick the box a scan of every ready box picks", "[qos]") {
    const Timebase& tb = Timebase::get(100);
    feedScripts()["ready-src"] = FeedScript{};
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
        INFO("seed " << seed);
        std::mt19937 rng(seed);
        Engine engine(validateGraph(parseGraph(boxesBeforeThreeOutputs(60)), testRegistry()), parseSchedulerText("qos"));
        std::vector<NodeContext*> boxes;
        for (NodeContext* node : engine.nodes()) {
            if (!node->isSource()) boxes.push_back(node);
        }
        // Whole milliseconds (exact in the arithmetic of both), few values: many exact ties.
        auto randomCosts = [&] {
            for (NodeContext* box : boxes) box->costEstimateNs = static_cast<double>((rng() % 4) * kMs);
        };
        randomCosts();
        QosPriorities priorities;
        priorities.prepare(engine.nodes());
        TimeNs now = 1'000'000 * kMs;
        QosReadyBoxes readyBoxes;
        readyBoxes.prepare(engine.nodes(), priorities, now);
        std::vector<NodeContext*> ready;
        std::vector<std::uint64_t> since;
        std::uint64_t decisions = 0;
        for (int step = 0; step < 3000; ++step) {
            now += static_cast<TimeNs>(rng() % 4) * kMs;
            const unsigned action = rng() % 10;
            if (action < 5) {
                // An item arrives at a box: fresh, up to 300 ms old, or without an arrival time.
                NodeContext* box = boxes[rng() % (boxes.size() - 3)];  // not the outputs (their input count varies)
                Item item = Item::scalar(1, SampleRange{&tb, step, 1});
                const unsigned age = rng() % 5;
                if (age > 0) item.setArrivalNs(now - static_cast<TimeNs>((age - 1) * 100) * kMs);
                box->inputs[0].queue.push(std::move(item));
                if (!box->scheduled) {
                    box->scheduled = true;
                    ready.push_back(box);
                    since.push_back(decisions);
                    readyBoxes.add(*box, decisions);
                } else {
                    readyBoxes.touch(*box);
                }
            } else if (action == 5) {
                randomCosts();
                priorities.refreshCosts();
                readyBoxes.costsChanged();
            } else if (!ready.empty()) {
                const std::size_t expected = scan(priorities, ready, since, decisions, now);
                NodeContext& taken = readyBoxes.takeBest(now, decisions);
                INFO("step " << step << ", " << ready.size() << " ready");
                REQUIRE(taken.id == ready[expected]->id);
                ready[expected] = ready.back();
                ready.pop_back();
                since[expected] = since.back();
                since.pop_back();
                taken.scheduled = false;
                while (!taken.inputs[0].queue.empty()) taken.inputs[0].queue.pop();
                ++decisions;
            }
        }
        for (NodeContext* box : boxes) {
            while (!box->inputs[0].queue.empty()) box->inputs[0].queue.pop();
            box->scheduled = false;
        }
    }
    feedScripts().clear();
}
