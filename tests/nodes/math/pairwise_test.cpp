#include <catch2/catch.hpp>

#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("add, subtract and multiply combine two signals split at different points", "[math][pairwise]") {
    const Timebase& tb = Timebase::get(16000);
    const std::vector<std::vector<float>> in{noise(3000, 71), noise(3000, 72)};
    struct Case {
        const char* type;
        float (*reference)(float, float);
    };
    const Case cases[] = {{"math.add", [](float a, float b) { return a + b; }},
                          {"math.subtract", [](float a, float b) { return a - b; }},
                          {"math.multiply", [](float a, float b) { return a * b; }}};
    for (const Case& c : cases) {
        std::vector<SampleRange> firstCut;  // how the first scheduler's output was cut into items
        for (const auto& scheduler : schedulerMatrix()) {
            INFO(c.type << ", scheduler " << scheduler);
            feedScripts()["pair"] = randomlySplit(in, tb, 8);
            REQUIRE(runGraph(throughOperator("pair", c.type, "{}", {"a", "b"}, {"out"}), scheduler).completed);
            const std::vector<float> got = contiguousSamples(collections()["pair"].items[0]);
            REQUIRE(got.size() == in[0].size());
            for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == c.reference(in[0][i], in[1][i]));
            std::vector<SampleRange> cut;
            for (const Item& item : collections()["pair"].items[0]) cut.push_back(item.range());
            if (firstCut.empty()) firstCut = cut;
            CHECK(cut == firstCut);  // the same items whatever the order they were delivered in
            collections().clear();
        }
    }
    feedScripts().clear();
}

TEST_CASE("a pairwise operator holds back progress until both inputs delivered", "[math][pairwise][progress]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    script.outputs = 2;
    script.batches = {{{0, Item::signal(makeSignal({1, 2, 3, 4}, 0, tb))}, {0, Item::progress(tb.timeOf(0))}},
                      {{1, Item::signal(makeSignal({10, 20}, 0, tb))}, {0, Item::progress(tb.timeOf(2))}},
                      {{1, Item::signal(makeSignal({30, 40}, 2, tb))}, {0, Item::progress(tb.timeOf(4))}}};
    feedScripts()["held"] = script;
    REQUIRE(runGraph(throughOperator("held", "math.add", "{}", {"a", "b"}, {"out"})).completed);
    const Collected& got = collections()["held"];
    CHECK(contiguousSamples(got.items[0]) == std::vector<float>{11, 22, 33, 44});
    REQUIRE(got.items[0].size() == 2);  // [0, 2) once b delivered it, then [2, 4)
    CHECK(got.items[0][0].segment().length() == 2);
    std::vector<TimeNs> finite;
    for (TimeNs t : got.progress[0]) if (t < kEndOfTime) finite.push_back(t);
    CHECK(std::find(finite.begin(), finite.end(), tb.timeOf(2)) != finite.end());
    CHECK(std::find(finite.begin(), finite.end(), tb.timeOf(4)) != finite.end());
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("a pairwise operator reads an input's promised gap as zeros without waiting for the end", "[math][pairwise][progress]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    script.outputs = 2;
    script.batches = {{{0, Item::signal(makeSignal({1, 2, 3, 4, 5, 6}, 0, tb))}, {1, Item::signal(makeSignal({10, 20}, 0, tb))}},
                      {{0, Item::progress(tb.timeOf(6))}},  // b promises nothing before sample 6: [2, 6) is a hole
                      {{1, Item::signal(makeSignal({70}, 6, tb))}, {0, Item::signal(makeSignal({7}, 6, tb))}}};
    feedScripts()["gap"] = script;
    REQUIRE(runGraph(throughOperator("gap", "math.add", "{}", {"a", "b"}, {"out"})).completed);
    const Collected& got = collections()["gap"];
    CHECK(contiguousSamples(got.items[0]) == std::vector<float>{11, 22, 3, 4, 5, 6, 77});
    // Samples [2, 6) went out when the promise came, not at the end: progress reached sample 6 first.
    REQUIRE(!got.progress[0].empty());
    CHECK(std::find(got.progress[0].begin(), got.progress[0].end(), tb.timeOf(6)) != got.progress[0].end());
    feedScripts().clear();
    collections().clear();
}
