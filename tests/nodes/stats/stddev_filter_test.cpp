#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "tests/nodes/stats/filter_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("stddev_filter forwards exactly the segments on the pass side, by reference", "[stats][stddev_filter]") {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> mean(-5.0, 5.0);
    std::uniform_real_distribution<double> stddev(0.0, 3.0);
    std::uniform_int_distribution<std::size_t> length(1, 5000);
    std::uniform_int_distribution<int> pieces(1, 6);
    const double threshold = 1.5;
    std::vector<SigSeg<float>> sent;
    std::vector<double> stddevs;
    FeedScript script;
    std::int64_t at = 0;
    while (sent.size() < 120) {
        SigSeg<float> segment = segmentWithStatistics(at, length(random), mean(random), stddev(random), pieces(random), random);
        const ReferenceStatistics want = referenceStatistics(segment);
        at = segment.endIndex();
        if (std::abs(want.stddev - threshold) < 1e-3) continue;  // too close to call in float
        sent.push_back(segment);
        stddevs.push_back(want.stddev);
        script.batches.push_back({{0, Item::signal(segment)}});
    }
    script.batches.push_back({{0, Item::signal(SigSeg<float>::allocate(0, at, &Timebase::get(8000)))}});  // empty: never passes
    feedScripts()["filter"] = script;
    for (const std::string pass : {"above", "below"}) {
        std::vector<const SigSeg<float>*> want;
        for (std::size_t i = 0; i < sent.size(); ++i) {
            if (pass == "above" ? stddevs[i] > threshold : stddevs[i] < threshold) want.push_back(&sent[i]);
        }
        REQUIRE(want.size() > 10);
        REQUIRE(want.size() < sent.size() - 10);
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("pass " << pass << ", " << scheduler);
            REQUIRE(runGraph(filterGraph("stats.stddev_filter", threshold, pass), scheduler).completed);
            const std::vector<Item>& got = collections()["filtered"].items[0];
            REQUIRE(got.size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                CHECK(got[i].segment().list() == want[i]->list());  // the very same storage
                CHECK(got[i].segment().startIndex() == want[i]->startIndex());
                CHECK(got[i].segment().length() == want[i]->length());
            }
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("stddev_filter declares a live threshold and applies a change", "[stats][stddev_filter]") {
    const OperatorDescriptor* d = testRegistry().find("stats.stddev_filter");
    REQUIRE(d != nullptr);
    const ParamSpec* threshold = d->findParam("threshold");
    REQUIRE(threshold != nullptr);
    CHECK(threshold->live);
    CHECK(threshold->kind == ParamKind::Real);
    CHECK(threshold->minimum == 0.0);
    const ParamSpec* pass = d->findParam("pass");
    REQUIRE(pass != nullptr);
    CHECK(pass->kind == ParamKind::Choice);
    CHECK(std::get<std::string>(pass->defaultValue) == "above");
    CHECK(pass->choices == std::vector<std::string>{"above", "below"});

    std::mt19937 random(3);
    FeedScript script;
    script.batches.push_back({{0, Item::signal(segmentWithStatistics(0, 1000, 0.0, 1.0, 2, random))}});
    script.batches.push_back({{0, Item::signal(segmentWithStatistics(1000, 1000, 0.0, 0.1, 1, random))}});
    feedScripts()["filter"] = script;
    // Starts with a threshold nothing passes; the change posted before the first round applies to all.
    Engine engine(validateGraph(parseGraph(filterGraph("stats.stddev_filter", 100.0, "above")), testRegistry()),
                  parseSchedulerText("df"));
    engine.postParameter("filter", "threshold", 0.5);
    REQUIRE(engine.run().completed);
    const std::vector<Item>& got = collections()["filtered"].items[0];
    REQUIRE(got.size() == 1);
    CHECK(got[0].segment().startIndex() == 0);
    CHECK_THROWS_AS(engine.postParameter("filter", "pass", std::string("below")), std::invalid_argument);  // not live
    feedScripts().clear();
    collections().clear();
}
