#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/graph/graph_file.h"
#include "engine/runtime/engine.h"
#include "tests/nodes/streams/disordered_stream.h"
#include "tests/support/graph_run.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

struct WindowResult {
    TimeNs start;
    double group;
    double count;
    double result;  // the function's value (count for count, bins summed for histogram)
    std::vector<double> bins;
};

struct Settings {
    double rangeS, slideS;
    std::string function;
    bool grouped;
};

// Reference: sort every item by time first, then scan each window's items directly.
std::vector<WindowResult> reference(std::vector<GeneratedItem> items, const Settings& s, const std::vector<double>& edges, int groups) {
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.timeMs < b.timeMs; });
    const std::int64_t rangeMs = std::llround(s.rangeS * 1000), slideMs = std::llround((s.slideS > 0 ? s.slideS : s.rangeS) * 1000);
    std::vector<WindowResult> out;
    const std::int64_t lastK = items.back().timeMs / slideMs;
    for (std::int64_t k = (items.front().timeMs - rangeMs) / slideMs - 1; k <= lastK; ++k) {
        for (int g = 0; g < (s.grouped ? groups : 1); ++g) {
            std::vector<double> values;
            for (const auto& item : items) {
                if (item.timeMs >= k * slideMs && item.timeMs < k * slideMs + rangeMs && (!s.grouped || item.id % groups == g)) values.push_back(item.value);
            }
            if (values.empty()) continue;
            WindowResult w{k * slideMs * 1'000'000, static_cast<double>(g), static_cast<double>(values.size()), 0, {}};
            if (s.function == "count") w.result = w.count;
            if (s.function == "sum" || s.function == "mean") {
                for (double v : values) w.result += v;
                if (s.function == "mean") w.result /= w.count;
            }
            if (s.function == "min") w.result = *std::min_element(values.begin(), values.end());
            if (s.function == "max") w.result = *std::max_element(values.begin(), values.end());
            if (s.function == "histogram") {
                w.bins.assign(edges.size() - 1, 0);
                for (double v : values) {
                    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
                        const bool last = b + 2 == edges.size();
                        if (v >= edges[b] && (v < edges[b + 1] || (last && v == edges[b + 1]))) ++w.bins[b];
                    }
                }
            }
            out.push_back(w);
        }
    }
    return out;
}

std::string graph(const Settings& s, const std::string& bins) {
    return R"({"format": "isochron-graph/1", "nodes": [
      {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "event"}},
      {"id": "b", "type": "test.feed", "params": {"name": "b", "type": "event"}},
      {"id": "union", "type": "streams.union"},
      {"id": "windows", "type": "relational.window_aggregate", "params": {"range": )" + std::to_string(s.rangeS) +
           R"(, "slide": )" + std::to_string(s.slideS) + R"(, "function": ")" + s.function + R"(", "field": ")" +
           (s.function == "count" ? "" : "value") + R"(", "group_by": ")" + (s.grouped ? "group" : "") + R"(", "bins": )" + bins + R"(}},
      {"id": "out", "type": "test.probe", "params": {"name": "out"}},
      {"id": "late", "type": "test.probe", "params": {"name": "late"}}],
     "edges": [{"from": "a.out0", "to": "union.in0"}, {"from": "b.out0", "to": "union.in1"},
               {"from": "union.out", "to": "windows.in"}, {"from": "windows.out", "to": "out.in"},
               {"from": "windows.late", "to": "late.in"}]})";
}

}  // namespace

TEST_CASE("WID windows over a disordered union equal windows computed by sorting first", "[relational][window_aggregate][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    const std::vector<double> edges{0, 10, 25, 50, 75, 100};
    const int groups = 3;
    const std::vector<Settings> matrix{
        {0.05, 0, "count", false}, {0.1, 0.03, "count", false}, {0.08, 0, "sum", false},  {0.1, 0.05, "min", true},
        {0.07, 0.07, "max", false}, {0.1, 0.025, "mean", true}, {0.06, 0, "histogram", false}, {0.2, 0.1, "histogram", true},
    };
    std::mt19937 random(2008);
    for (const Settings& s : matrix) {
        // Two streams of different density, one of them skewed 300 ms behind by arriving late.
        const auto a = generateItems(random, 300, 0, 6, 0);
        auto b = generateItems(random, 120, 0, 15, 1000);
        std::vector<GeneratedItem> all = a;
        all.insert(all.end(), b.begin(), b.end());
        const auto want = reference(all, s, edges, groups);
        feedScripts()["a"] = disorderedFeed(a, 40, random, tb, groups);
        feedScripts()["b"] = disorderedFeed(b, 300, random, tb, groups);
        for (const auto& scheduler : schedulerMatrix()) {
            INFO(s.function << " range " << s.rangeS << " slide " << s.slideS << (s.grouped ? " grouped " : " ") << scheduler);
            const RunOutcome outcome = runGraph(graph(s, "[0, 10, 25, 50, 75, 100]"), scheduler);
            REQUIRE(outcome.completed);
            const Probed& got = probes()["out"];
            CHECK(probes()["late"].itemCount == 0);
            CHECK(got.brokenPromises == 0);
            REQUIRE(got.items.size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                const Item& item = got.items[i];
                const EventRecord& e = *item.event();
                INFO("window " << i << " starting " << want[i].start);
                CHECK(item.time() == want[i].start);
                CHECK(item.range().length == std::llround(s.rangeS * 1e9));
                CHECK(*e.get("count") == want[i].count);
                if (s.grouped) CHECK(*e.get("group") == want[i].group);
                if (s.function == "histogram") {
                    for (std::size_t bin = 0; bin < want[i].bins.size(); ++bin) CHECK(*e.get("bin" + std::to_string(bin)) == want[i].bins[bin]);
                } else if (s.function != "count") {
                    CHECK(*e.get(s.function) == Approx(want[i].result).epsilon(1e-12));
                }
            }
        }
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("WID sends items older than the input's progress to late and counts them", "[relational][window_aggregate][oop]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    FeedScript a;
    std::vector<GeneratedItem> items{{100, 1, 1}, {150, 2, 1}, {50, 3, 1}, {210, 4, 1}, {120, 5, 1}};
    a.batches = {{{0, eventItem(items[0], tb)}, {0, Item::progress(tb.timeOf(140))}},
                 {{0, eventItem(items[1], tb)}},
                 {{0, eventItem(items[2], tb)}},  // 50 < 140: late
                 {{0, eventItem(items[3], tb)}, {0, Item::progress(tb.timeOf(200))}},
                 {{0, eventItem(items[4], tb)}}};  // 120 < 200: late
    feedScripts()["a"] = a;
    const std::string direct = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "event"}},
      {"id": "windows", "type": "relational.window_aggregate", "params": {"range": 0.1}},
      {"id": "out", "type": "test.probe", "params": {"name": "out"}},
      {"id": "late", "type": "test.probe", "params": {"name": "late"}}],
     "edges": [{"from": "a.out0", "to": "windows.in"}, {"from": "windows.out", "to": "out.in"}, {"from": "windows.late", "to": "late.in"}]})";
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        REQUIRE(runGraph(direct, scheduler).completed);
        const Probed& late = probes()["late"];
        REQUIRE(late.items.size() == 2);
        CHECK(idOf(late.items[0]) == 3);
        CHECK(idOf(late.items[1]) == 5);
        const Probed& out = probes()["out"];
        REQUIRE(out.items.size() == 2);  // [100, 200): items 1 and 2; [200, 300): item 4
        CHECK(*out.items[0].event()->get("count") == 2);
        CHECK(*out.items[1].event()->get("count") == 1);
    }
    feedScripts().clear();
    probes().clear();
}

TEST_CASE("a field the items do not have is warned about once, naming the fields they have", "[relational][window_aggregate]") {
    registerStreamProbes();
    const Timebase& tb = Timebase::get(1000);
    FeedScript a;
    for (int i = 0; i < 5; ++i) a.batches.push_back({{0, eventItem({100 * i, i, 1.0}, tb)}});
    feedScripts()["a"] = a;
    const std::string misspelled = R"({"format": "isochron-graph/1", "nodes": [
      {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "event"}},
      {"id": "windows", "type": "relational.window_aggregate", "params": {"range": 0.1, "function": "mean", "field": "nope"}},
      {"id": "out", "type": "test.probe", "params": {"name": "out"}}],
     "edges": [{"from": "a.out0", "to": "windows.in"}, {"from": "windows.out", "to": "out.in"}]})";
    Engine engine(validateGraph(parseGraph(misspelled), testRegistry()), parseSchedulerText("df"));
    REQUIRE(engine.run().completed);
    const auto& warnings = engine.findNode("windows")->warnings;
    REQUIRE(warnings.size() == 2);
    CHECK_THAT(warnings[0], Catch::Contains("no field 'nope' (it has: value, id, group)"));
    CHECK_THAT(warnings[1], Catch::Contains("5 items in all lacked the field"));
    CHECK(probes()["out"].items.empty());
    feedScripts().clear();
    probes().clear();
}
