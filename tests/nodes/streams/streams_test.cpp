#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
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

// Two feeds "a" and "b" into `type` (with its params), its out and late ports to probes.
std::string twoInputGraph(const std::string& type, const std::string& params = "{}") {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "event"}},
      {"id": "b", "type": "test.feed", "params": {"name": "b", "type": "event"}},
      {"id": "op", "type": ")" + type + R"(", "params": )" + params + R"(},
      {"id": "out", "type": "test.probe", "params": {"name": "out"}},
      {"id": "late", "type": "test.probe", "params": {"name": "late"}}],
     "edges": [{"from": "a.out0", "to": "op.in0"}, {"from": "b.out0", "to": "op.in1"},
               {"from": "op.out", "to": "out.in"}, {"from": "op.late", "to": "late.in"}]})";
}

std::string oneInputGraph(const std::string& type, const std::string& params) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "event"}},
      {"id": "op", "type": ")" + type + R"(", "params": )" + params + R"(},
      {"id": "out", "type": "test.probe", "params": {"name": "out"}},
      {"id": "late", "type": "test.probe", "params": {"name": "late"}}],
     "edges": [{"from": "a.out0", "to": "op.in"}, {"from": "op.out", "to": "out.in"}, {"from": "op.late", "to": "late.in"}]})";
}

std::vector<int> ids(const std::vector<Item>& items) {
    std::vector<int> out;
    for (const Item& item : items) out.push_back(idOf(item));
    return out;
}

std::vector<int> idsByTime(std::vector<GeneratedItem> items) {
    std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.timeMs < b.timeMs; });
    std::vector<int> out;
    for (const auto& g : items) out.push_back(g.id);
    return out;
}

}  // namespace

TEST_CASE("union passes every item on at once and promises the minimum of its inputs' progress", "[streams][union][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(11);
    const auto a = generateItems(random, 200, 0, 10, 0);
    const auto b = generateItems(random, 200, 0, 10, 1000);
    feedScripts()["a"] = disorderedFeed(a, 20, random, tb);
    feedScripts()["b"] = disorderedFeed(b, 400, random, tb);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        ValidatedGraph graph = validateGraph(parseGraph(twoInputGraph("streams.union")), testRegistry());
        Engine engine(graph, parseSchedulerText(scheduler));
        REQUIRE(engine.run().completed);
        std::vector<int> got = ids(probes()["out"].items);
        std::sort(got.begin(), got.end());
        std::vector<int> want;
        for (const auto& g : a) want.push_back(g.id);
        for (const auto& g : b) want.push_back(g.id);
        std::sort(want.begin(), want.end());
        CHECK(got == want);
        CHECK(probes()["out"].brokenPromises == 0);
        CHECK(probes()["late"].itemCount == 0);
        CHECK(engine.findNode("op")->op->heldState().peakItems == 0);  // nothing is ever buffered
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("ordered merge releases every item in time order, holding what is ahead of the slowest input", "[streams][ordered_merge][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(12);
    const auto a = generateItems(random, 300, 0, 5, 0);
    const auto b = generateItems(random, 100, 0, 15, 1000);
    std::vector<GeneratedItem> all = a;
    all.insert(all.end(), b.begin(), b.end());
    feedScripts()["a"] = disorderedFeed(a, 10, random, tb);
    feedScripts()["b"] = disorderedFeed(b, 600, random, tb);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        ValidatedGraph graph = validateGraph(parseGraph(twoInputGraph("streams.ordered_merge")), testRegistry());
        Engine engine(graph, parseSchedulerText(scheduler));
        REQUIRE(engine.run().completed);
        const auto& items = probes()["out"].items;
        REQUIRE(items.size() == all.size());
        CHECK(std::is_sorted(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.time() < y.time(); }));
        // Ties in time are released by input, then arrival: compare as multisets per time.
        std::vector<std::pair<TimeNs, int>> got, want;
        for (const Item& item : items) got.push_back({item.time(), idOf(item)});
        for (const auto& g : all) want.push_back({tb.timeOf(g.timeMs), g.id});
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        CHECK(got == want);
        CHECK(probes()["out"].brokenPromises == 0);
        // b lags up to 600 ms: a's items for that long were held (a's rate: one per 2.5 ms on average).
        CHECK(engine.findNode("op")->op->heldState().peakItems > 50);
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("slack restores order within its grace period and sends what arrives beyond it to late", "[streams][slack][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(13);
    const auto items = generateItems(random, 500, 0, 4, 0);
    SECTION("slack larger than the disorder: nothing is late, output sorted") {
        feedScripts()["a"] = disorderedFeed(items, 30, random, tb);
        for (const auto& scheduler : schedulerMatrix()) {
            INFO(scheduler);
            REQUIRE(runGraph(oneInputGraph("streams.slack", R"({"slack": 0.05})"), scheduler).completed);
            CHECK(probes()["late"].itemCount == 0);
            const auto& out = probes()["out"].items;
            CHECK(std::is_sorted(out.begin(), out.end(), [](const Item& x, const Item& y) { return x.time() < y.time(); }));
            std::vector<int> got = ids(out);
            std::sort(got.begin(), got.end());
            CHECK(got == idsByTime(items));  // ids are numbered in time order
        }
    }
    SECTION("slack smaller than the disorder: items are late, none lost, the rest in order") {
        feedScripts()["a"] = disorderedFeed(items, 100, random, tb);
        for (const auto& scheduler : schedulerMatrix()) {
            INFO(scheduler);
            REQUIRE(runGraph(oneInputGraph("streams.slack", R"({"slack": 0.01})"), scheduler).completed);
            const auto& out = probes()["out"].items;
            const auto late = probes()["late"].itemCount;
            CHECK(late > 0);
            CHECK(out.size() + static_cast<std::size_t>(late) == items.size());
            CHECK(std::is_sorted(out.begin(), out.end(), [](const Item& x, const Item& y) { return x.time() < y.time(); }));
        }
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("a link delays and jitters items reproducibly and keeps its progress promises", "[streams][link][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    std::mt19937 random(14);
    const auto items = generateItems(random, 400, 0, 20, 0);
    FeedScript ordered;
    for (const auto& g : items) ordered.batches.push_back({{0, eventItem(g, tb)}, {0, Item::progress(tb.timeOf(g.timeMs))}});
    feedScripts()["a"] = ordered;
    std::vector<int> first;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(oneInputGraph("streams.link", R"({"delay": 2.0, "jitter": 0.2, "seed": 7})"), scheduler).completed);
        const Probed& out = probes()["out"];
        CHECK(out.brokenPromises == 0);
        std::vector<int> got = ids(out.items);
        if (first.empty()) first = got;
        CHECK(got == first);  // the same arrival order under every scheduler
        CHECK(got != idsByTime(items));  // 200 ms of jitter over items ~10 ms apart reorders them
        std::sort(got.begin(), got.end());
        CHECK(got == idsByTime(items));  // a permutation: nothing lost
    }
    feedScripts().clear();
    probes().clear();
}
