#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/schedulers/scheduler.h"
#include "tests/nodes/streams/disordered_stream.h"
#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

std::string joinGraph(double bandS) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "l", "type": "test.feed", "params": {"name": "l", "type": "event"}},
      {"id": "r", "type": "test.feed", "params": {"name": "r", "type": "event"}},
      {"id": "join", "type": "relational.band_join", "params": {"band": )" + std::to_string(bandS) + R"(, "left_prefix": "l_", "right_prefix": "r_"}},
      {"id": "out", "type": "test.probe", "params": {"name": "out"}},
      {"id": "late", "type": "test.probe", "params": {"name": "late"}}],
     "edges": [{"from": "l.out0", "to": "join.left"}, {"from": "r.out0", "to": "join.right"},
               {"from": "join.out", "to": "out.in"}, {"from": "join.late", "to": "late.in"}]})";
}

}  // namespace

TEST_CASE("band join on disordered, skewed inputs equals a nested-loop join", "[relational][band_join][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(1977);
    for (const std::int64_t bandMs : {0, 7, 25}) {
        const auto left = generateItems(random, 400, 0, 8, 0);
        const auto right = generateItems(random, 250, 0, 13, 10000);
        std::vector<std::pair<int, int>> want;
        for (const auto& l : left) {
            for (const auto& r : right) {
                if (std::abs(l.timeMs - r.timeMs) <= bandMs) want.push_back({l.id, r.id});
            }
        }
        std::sort(want.begin(), want.end());
        feedScripts()["l"] = disorderedFeed(left, 30, random, tb);
        feedScripts()["r"] = disorderedFeed(right, 500, random, tb);  // arrives up to half a second late
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("band " << bandMs << " ms, " << scheduler);
            ValidatedGraph graph = validateGraph(parseGraph(joinGraph(static_cast<double>(bandMs) / 1000)), testRegistry());
            Engine engine(graph, parseSchedulerText(scheduler));
            REQUIRE(engine.run().completed);
            const Probed& got = probes()["out"];
            CHECK(got.brokenPromises == 0);
            CHECK(probes()["late"].itemCount == 0);
            std::vector<std::pair<int, int>> pairs;
            for (const Item& item : got.items) {
                const EventRecord& e = *item.event();
                const int l = static_cast<int>(*e.get("l_id")), r = static_cast<int>(*e.get("r_id"));
                pairs.push_back({l, r});
                CHECK(*e.get("dt_s") == Approx(static_cast<double>(right[static_cast<std::size_t>(r - 10000)].timeMs - left[static_cast<std::size_t>(l)].timeMs) / 1000).margin(1e-12));
                CHECK(item.time() == tb.timeOf(std::min(left[static_cast<std::size_t>(l)].timeMs, right[static_cast<std::size_t>(r - 10000)].timeMs)));
            }
            std::sort(pairs.begin(), pairs.end());
            CHECK(pairs == want);
            // Purged by punctuation: the join never held more than the skew's worth of items.
            const HeldState held = engine.findNode("join")->op->heldState();
            CHECK(held.items == 0);
            CHECK(held.peakItems < (left.size() + right.size()) / 2);
        }
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("band join routes items older than their input's progress to late", "[relational][band_join][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    FeedScript l, r;
    l.batches = {{{0, eventItem({100, 1, 0}, tb)}, {0, Item::progress(tb.timeOf(300))}}, {{0, eventItem({250, 2, 0}, tb)}}};
    r.batches = {{{0, eventItem({105, 10, 0}, tb)}}, {{0, eventItem({400, 11, 0}, tb)}, {0, Item::progress(tb.timeOf(500))}}};
    feedScripts()["l"] = l;
    feedScripts()["r"] = r;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        ValidatedGraph graph = validateGraph(parseGraph(joinGraph(0.01)), testRegistry());
        Engine engine(graph, parseSchedulerText(scheduler));
        REQUIRE(engine.run().completed);
        REQUIRE(probes()["late"].items.size() == 1);
        CHECK(idOf(probes()["late"].items[0]) == 2);
        REQUIRE(probes()["out"].items.size() == 1);
        CHECK(*probes()["out"].items[0].event()->get("l_id") == 1);
        CHECK(engine.findNode("join")->inputs[0].lateItems == 1);
        CHECK(engine.findNode("join")->inputs[1].lateItems == 0);
    }
    feedScripts().clear();
    probes().clear();
}
