#include <catch2/catch.hpp>

#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

TEST_CASE("null_sink accepts anything and discards it", "[io][null_sink]") {
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    for (int i = 0; i < 5; ++i) script.batches.push_back({{0, Item::signal(makeSignal({1, 2}, 2 * i, timebase))}});
    feedScripts()["null"] = script;
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "null"}}}}, {{"id", "sink"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "sink.in"}}}},
    };
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        RunReport report = runGraphReporting(graph.dump(), scheduler);
        CHECK(report.outcome.completed);
        CHECK(report.outcome.failures.empty());
        CHECK(report.nodes["sink"].calls == 5);
    }
    feedScripts().clear();
}
