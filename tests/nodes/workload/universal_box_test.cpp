#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "engine/graph/graph_error.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// A feed with `inputs` outputs into one universal box with `params`, into a collector named "box".
std::string boxGraph(int inputs, const json& params) {
    json boxParams = params;
    boxParams["inputs"] = inputs;
    json edges = {{{"from", "box.out"}, {"to", "sink.in0"}}};
    for (int i = 0; i < inputs; ++i) edges.push_back({{"from", "feed.out" + std::to_string(i)}, {"to", "box.in" + std::to_string(i)}});
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "box"}, {"outputs", inputs}, {"type", "scalar"}}}},
          {{"id", "box"}, {"type", "workload.universal_box"}, {"params", boxParams}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "box"}}}}}},
        {"edges", edges},
    };
    return graph.dump();
}

/// Feed scalars 0..count-1 to input 0, a few per batch, each with an arrival time of its own.
void feedNumbered(int count) {
    FeedScript script;
    const Timebase& timebase = Timebase::get(1000);
    for (int i = 0; i < count; i += 7) {
        std::vector<std::pair<int, Item>> batch;
        for (int k = i; k < std::min(count, i + 7); ++k) {
            Item item = Item::scalar(k, SampleRange{&timebase, k, 1});
            item.setArrivalNs(1'000'000 + k);
            batch.push_back({0, std::move(item)});
        }
        script.batches.push_back(std::move(batch));
    }
    feedScripts()["box"] = script;
}

/// Values (1-based item numbers) of the items the box passed on.
std::vector<int> passedNumbers() {
    std::vector<int> numbers;
    for (const Item& item : collections()["box"].items[0]) numbers.push_back(static_cast<int>(item.value()) + 1);
    return numbers;
}

}  // namespace

TEST_CASE("universal_box passes evenly spread items at its selectivity", "[workload][universal_box]") {
    feedNumbered(24);
    const std::vector<std::pair<double, std::vector<int>>> patterns = {
        {0.5, {2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24}},
        {0.25, {4, 8, 12, 16, 20, 24}},
        {0.75, {2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15, 16, 18, 19, 20, 22, 23, 24}},
        {0.1, {10, 20}},
        {0.0, {}},
    };
    for (const std::string scheduler : {"df", "rr", "superbox-mc", "qos"}) {
        for (const auto& [selectivity, expected] : patterns) {
            INFO("selectivity " << selectivity << ", scheduler " << scheduler);
            RunOutcome outcome = runGraph(boxGraph(1, {{"selectivity", selectivity}}), scheduler);
            CHECK(outcome.completed);
            CHECK(passedNumbers() == expected);
            CHECK(collections()["box"].finished);
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("universal_box passes exactly floor(n x selectivity) of n items", "[workload][universal_box]") {
    constexpr int kItems = 1000;
    feedNumbered(kItems);
    for (const double selectivity : {1.0, 0.999, 0.9, 0.62, 0.333, 0.05, 0.001}) {
        INFO("selectivity " << selectivity);
        runGraph(boxGraph(1, {{"selectivity", selectivity}, {"cost_us", 0.5}}), "rr");
        const std::vector<int> passed = passedNumbers();
        // Independent of the operator's integer pattern: count by a double product per prefix.
        std::size_t next = 0;
        for (int n = 1; n <= kItems; ++n) {
            if (next < passed.size() && passed[next] == n) ++next;
            REQUIRE(next == static_cast<std::size_t>(n * selectivity + 1e-9));
        }
        CHECK(next == passed.size());
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("universal_box merges its inputs and forwards items unchanged, arrival time included", "[workload][universal_box]") {
    const Timebase& timebase = Timebase::get(100);
    FeedScript script;
    for (int i = 0; i < 30; ++i) {
        Item item = Item::scalar(i, SampleRange{&timebase, i, 1});
        item.setArrivalNs(5'000'000 + 1000 * i);
        script.batches.push_back({{i % 3, std::move(item)}});
    }
    feedScripts()["box"] = script;
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        RunOutcome outcome = runGraph(boxGraph(3, {{"cost_us", 0.2}}), scheduler);
        CHECK(outcome.completed);
        const std::vector<Item>& got = collections()["box"].items[0];
        REQUIRE(got.size() == 30);
        std::vector<bool> seen(30, false);
        for (const Item& item : got) {
            const int i = static_cast<int>(item.value());
            REQUIRE((i >= 0 && i < 30));
            CHECK(!seen[static_cast<std::size_t>(i)]);
            seen[static_cast<std::size_t>(i)] = true;
            CHECK(item.kind() == ItemKind::Scalar);
            CHECK(item.range() == SampleRange{&timebase, i, 1});
            CHECK(item.arrivalNs() == 5'000'000 + 1000 * i);
        }
    }
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("universal_box refuses a selectivity outside [0, 1] and a negative cost, naming node and field",
          "[workload][universal_box]") {
    feedNumbered(1);
    for (const json& params : {json{{"selectivity", 1.5}}, json{{"cost_us", -1}}}) {
        try {
            runGraph(boxGraph(1, params));
            FAIL("the graph was accepted");
        } catch (const GraphException& e) {
            CHECK_THAT(e.what(), Catch::Contains("box"));
            CHECK_THAT(e.what(), Catch::Contains(params.begin().key()));
        }
    }
    feedScripts().clear();
    collections().clear();
}
