// QoS graphs, box priorities and their buckets, and latency/utility accounting at outputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/graph_error.h"
#include "engine/graph/validated_graph.h"
#include "engine/qos/qos_graph.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/qos_bucket.h"
#include "engine/schedulers/qos_priority.h"
#include "engine/time/wall_clock.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// Utility by the definition: linear between neighbouring points, flat outside.
double utilityByDefinition(const std::vector<QosPoint>& p, double ms) {
    if (ms <= p.front().latencyMs) return p.front().utility;
    if (ms >= p.back().latencyMs) return p.back().utility;
    std::size_t i = 1;
    while (p[i].latencyMs < ms) ++i;
    const double t = (ms - p[i - 1].latencyMs) / (p[i].latencyMs - p[i - 1].latencyMs);
    return (1 - t) * p[i - 1].utility + t * p[i].utility;
}

// Two outputs behind one shared box: a tight QoS graph and a loose one (the paper's section 7.3).
const char* kTwoOutputs = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "src", "type": "test.feed", "params": {"name": "qos-src", "type": "scalar"}},
    {"id": "shared", "type": "test.gain"},
    {"id": "fast", "type": "test.gain"},
    {"id": "slow", "type": "test.gain"},
    {"id": "tight", "type": "test.collect", "params": {"name": "tight"}, "qos": [[0, 1], [1, 1], [1000, 0]]},
    {"id": "loose", "type": "test.collect", "params": {"name": "loose"}, "qos": {"points": [[0, 1], [4000, 1], [5000, 0]]}}
  ],
  "edges": [
    {"from": "src.out0", "to": "shared.in"}, {"from": "shared.out", "to": "fast.in"}, {"from": "shared.out", "to": "slow.in"},
    {"from": "fast.out", "to": "tight.in0"}, {"from": "slow.out", "to": "loose.in0"}
  ]
})";

}  // namespace

TEST_CASE("QoS graph: utility, gradient and slack by the definition", "[qos]") {
    const std::vector<QosPoint> points{{0, 1}, {10, 1}, {30, 0.5}, {30, 0.4}, {50, 0}};
    const QosGraph qos(points);
    for (double ms = -5; ms <= 70; ms += 0.25) {
        INFO("latency " << ms);
        if (ms != 30) CHECK(qos.utility(ms) == Approx(utilityByDefinition(points, ms)).margin(1e-12));
    }
    CHECK(qos.gradient(5) == 0.0);
    CHECK(qos.gradient(20) == Approx(-0.5 / 20));
    CHECK(qos.gradient(40) == Approx(-0.4 / 20));
    CHECK(qos.gradient(60) == 0.0);
    CHECK(qos.slack(4) == Approx(6));
    CHECK(qos.slack(10) == Approx(20));
    CHECK(qos.slack(49) == Approx(1));
    CHECK(std::isinf(qos.slack(50)));  // past the last critical point nothing more can be lost
    // The default: 1 up to the deadline, then down to 0 at twice the deadline.
    const QosGraph deadline = QosGraph::withDeadline(100);
    CHECK(deadline.utility(100) == 1.0);
    CHECK(deadline.utility(150) == Approx(0.5));
    CHECK(deadline.utility(1e9) == 0.0);
}

TEST_CASE("QoS graph: interpolation never leaves its segment's utilities, even on a very long segment", "[qos]") {
    // fuzz_qos_curve: from 0.82 at 11 ms to 0 at 2e9 ms, just before the end the plain formula rounded below 0.
    const QosGraph qos(std::vector<QosPoint>{{5, 0}, {10, 1}, {11, 0.82}, {2e9, 0}});
    for (double ms = 2e9; ms > 2e9 - 1e4; ms = std::nextafter(ms, 0.0) - 97.0) {
        INFO("latency " << ms);
        CHECK(qos.utility(ms) >= 0.0);
        CHECK(qos.utility(ms) <= 0.82);
    }
    CHECK(qos.utility(std::nextafter(2e9, 0.0)) >= 0.0);
    CHECK(qos.utility(2e9) == 0.0);
}

TEST_CASE("QoS graph: bad points are refused with the reason, JSON round-trips", "[qos]") {
    CHECK_THROWS_WITH(QosGraph({}), Catch::Contains("at least one point"));
    CHECK_THROWS_WITH(QosGraph({{0, 1}, {5, 1.5}}), Catch::Contains("point 1") && Catch::Contains("utility"));
    CHECK_THROWS_WITH(QosGraph({{10, 1}, {5, 0}}), Catch::Contains("must not decrease"));
    CHECK_THROWS_WITH(QosGraph({{-1, 1}}), Catch::Contains("latency"));
    CHECK_THROWS_WITH(QosGraph::withDeadline(0), Catch::Contains("positive"));
    const QosGraph qos({{0, 1}, {4000, 1}, {5000, 0}});
    CHECK(QosGraph::fromJson(qos.toJson()) == qos);
    CHECK_THROWS_WITH(QosGraph::fromJson(nlohmann::json::parse(R"([[0, 1], [2]])")), Catch::Contains("[latency_ms, utility]"));
}

TEST_CASE("graph files: QoS errors name the node and the field", "[qos][graph]") {
    auto errorOf = [](const std::string& graph) {
        try {
            validateGraph(parseGraph(graph), testRegistry());
        } catch (const GraphException& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    auto edited = [](std::string from, std::string to) {
        std::string graph = kTwoOutputs;
        graph.replace(graph.find(from), from.size(), to);
        return graph;
    };
    CHECK_THAT(errorOf(edited(R"("type": "test.gain"})", R"("type": "test.gain", "qos": [[0, 1]]})")),
               Catch::Contains("shared") && Catch::Contains("qos") && Catch::Contains("output"));
    CHECK_THAT(errorOf(edited("[1000, 0]", "[1000, 7]")), Catch::Contains("tight") && Catch::Contains("qos") && Catch::Contains("utility"));
    CHECK_THAT(errorOf(edited(R"("nodes")", R"("qos_default": {"deadline_ms": "soon"}, "nodes")")), Catch::Contains("qos_default"));
}

TEST_CASE("box priority: steepest utility loss at the expected output latency, then least slack", "[qos]") {
    feedScripts()["qos-src"] = FeedScript{};
    Engine engine(validateGraph(parseGraph(kTwoOutputs), testRegistry()), parseSchedulerText("qos"));
    for (NodeContext* node : engine.nodes()) node->costEstimateNs = 0.5e6;  // 0.5 ms per item everywhere
    QosPriorities priorities;
    priorities.prepare(engine.nodes());
    const NodeContext& fast = *engine.findNode("fast");
    const NodeContext& slow = *engine.findNode("slow");
    const NodeContext& shared = *engine.findNode("shared");

    // Fresh items at the sink: 0.5 ms to go, still on the tight graph's flat part.
    BoxPriority p = priorities.priorityAt(*engine.findNode("tight"), 0);
    CHECK(p.utility == 0.0);
    CHECK(p.slackMs == Approx(0.5));
    // Fresh items at fast: eol = cost(fast) + cost(tight) = 1 ms, the critical point, from where
    // utility falls.
    p = priorities.priorityAt(fast, 0);
    CHECK(p.utility == Approx(1.0 / 999));
    CHECK(p.slackMs == Approx(999));
    // 10 ms old: the tight graph loses 1/999 per ms, the loose one nothing.
    p = priorities.priorityAt(fast, 10);
    CHECK(p.utility == Approx(1.0 / 999));
    CHECK(p.slackMs == Approx(1000 - 11));
    BoxPriority q = priorities.priorityAt(slow, 10);
    CHECK(q.utility == 0.0);
    CHECK(q.slackMs == Approx(4000 - 11));
    CHECK(p > q);
    // The shared box feeds both outputs: gradients add up, the least slack counts.
    BoxPriority s = priorities.priorityAt(shared, 10);
    CHECK(s.utility == Approx(1.0 / 999));
    CHECK(s.slackMs == Approx(1000 - 11.5));
    CHECK(s > p);  // same loss, less slack
    // Between 4 s and 5 s the loose output loses 1/1000 per ms, the tight one is already at 0.
    CHECK(priorities.priorityAt(slow, 4200).utility == Approx(1.0 / 1000));
    CHECK(priorities.priorityAt(fast, 4200).utility == 0.0);
    CHECK(std::isinf(priorities.priorityAt(fast, 4200).slackMs));
    CHECK(priorities.maxUtility() == Approx(1.0 / 999));
    CHECK(priorities.maxSlackMs() == Approx(5000));
    // Costs follow the estimates on refresh.
    engine.findNode("tight")->costEstimateNs = 100e6;
    priorities.refreshCosts();
    CHECK(priorities.priorityAt(fast, 10).slackMs == Approx(1000 - 110.5));
}

TEST_CASE("buckets partition gradient and slack; one bucket pair keeps the exact order's extremes", "[qos]") {
    const double maxUtility = 0.01, maxSlack = 1000;
    auto bucket = [&](double utility, double slack) { return bucketOf({utility, slack}, 10, 10, maxUtility, maxSlack); };
    CHECK(bucket(0.01, 0).gradient == 9);   // steepest loss: top gradient bucket
    CHECK(bucket(0.0, 0).gradient == 0);
    CHECK(bucket(0.0049, 0).gradient == 4);
    CHECK(bucket(0.0, 0).slack == 0);       // least slack: first slack bucket
    CHECK(bucket(0.0, 999).slack == 9);
    CHECK(bucket(0.0, 250).slack == 2);
    CHECK(bucket(0.0, std::numeric_limits<double>::infinity()).slack == 9);
    CHECK(bucket(1.0, 5000).gradient == 9);  // beyond the range: clamped, never out of bounds
    CHECK(bucket(1.0, 5000).slack == 9);
    // Monotone: a higher exact priority never lands in a lower gradient bucket.
    for (double u = 0; u <= maxUtility; u += maxUtility / 97) {
        CHECK(bucket(u, 10).gradient <= bucket(u + maxUtility / 97, 10).gradient);
    }
}

TEST_CASE("latency and utility at outputs: emission time minus the arrival of the data", "[qos]") {
    // Items that arrived 300 ms ago reach the tight output (utility 1 - 299/999) and the loose one
    // (utility 1).
    const Timebase& tb = Timebase::get(100);
    for (const std::string scheduler : {"df", "rr", "superbox-ml", "qos", "qos-bucket"}) {
        INFO("scheduler " << scheduler);
        const TimeNs before = wallClockNs();
        FeedScript script;
        for (int i = 0; i < 20; ++i) {
            Item item = Item::scalar(i, SampleRange{&tb, 10 * i, 5});
            item.setArrivalNs(before - 300'000'000);
            script.batches.push_back({{0, std::move(item)}});
        }
        // The script must exist before the engine activates the feed that reads it.
        feedScripts()["qos-src"] = std::move(script);
        Engine engine(validateGraph(parseGraph(kTwoOutputs), testRegistry()), parseSchedulerText(scheduler));
        REQUIRE(engine.run().completed);
        const double runMs = static_cast<double>(wallClockNs() - before) / 1e6;
        for (const char* id : {"tight", "loose"}) {
            const SinkStats& stats = *engine.findNode(id)->sink;
            REQUIRE(stats.latency.count() == 20);
            CHECK(stats.latency.meanNs() / 1e6 >= 299.0);
            CHECK(stats.latency.meanNs() / 1e6 <= 301.0 + runMs);
        }
        const SinkStats& tight = *engine.findNode("tight")->sink;
        const SinkStats& loose = *engine.findNode("loose")->sink;
        const double tightMeanMs = tight.latency.meanNs() / 1e6;
        // The latency histogram's mean is exact, and every item has about that latency.
        CHECK(tight.utilitySum / 20 == Approx(tight.qos.utility(tightMeanMs)).margin(0.002 + runMs / 999));
        CHECK(loose.utilitySum == Approx(20.0));
    }
    feedScripts().clear();
    collections().clear();
}
