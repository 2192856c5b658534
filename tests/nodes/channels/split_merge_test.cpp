#include <catch2/catch.hpp>

#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const char* kRoundTrip = R"({"format": "isochron-graph/1", "nodes": [
    {"id": "feed", "type": "test.feed", "params": {"name": "merge", "outputs": 3}},
    {"id": "merge", "type": "channels.merge"},
    {"id": "split", "type": "channels.split", "params": {"channels": 3}},
    {"id": "interleaved", "type": "test.collect", "params": {"name": "interleaved"}},
    {"id": "back", "type": "test.collect", "params": {"name": "back", "inputs": 3}}],
  "edges": [{"from": "feed.out*", "to": "merge.in*"}, {"from": "merge.out", "to": "interleaved.in0"},
            {"from": "merge.out", "to": "split.in"}, {"from": "split.out*", "to": "back.in*"}]})";

}  // namespace

TEST_CASE("merge interleaves channels split at different points, and split gives them back", "[channels][merge][split]") {
    const Timebase& tb = Timebase::get(16000, 5000);
    const std::vector<std::vector<float>> channels{noise(2500, 11), noise(2500, 12), noise(2500, 13)};
    std::vector<float> interleaved;  // the reference: frame f holds channel 0, 1, 2 in turn
    for (std::size_t f = 0; f < 2500; ++f) {
        for (const auto& channel : channels) interleaved.push_back(channel[f]);
    }
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("seed " << seed << ", scheduler " << scheduler);
            feedScripts()["merge"] = randomlySplit(channels, tb, seed);
            REQUIRE(runGraph(kRoundTrip, scheduler).completed);
            const Collected& merged = collections()["interleaved"];
            CHECK(contiguousSamples(merged.items[0]) == interleaved);
            for (const Item& item : merged.items[0]) {
                CHECK(item.segment().timebase()->rateHz() == 48000);
                CHECK(item.time() == tb.timeOf(item.segment().startIndex() / 3));  // frame f keeps its time
            }
            const Collected& back = collections()["back"];
            for (std::size_t c = 0; c < 3; ++c) {
                CHECK(contiguousSamples(back.items[c]) == channels[c]);
                for (const Item& item : back.items[c]) CHECK(item.segment().timebase() == &tb);
            }
            collections().clear();
        }
    }
    feedScripts().clear();
}

TEST_CASE("merge fills a sample an input never delivered with zero", "[channels][merge]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    script.outputs = 2;
    script.batches = {{{0, Item::signal(makeSignal({1, 2, 3, 4}, 0, tb))}},
                      {{1, Item::signal(makeSignal({10, 20}, 0, tb))}},
                      {{1, Item::signal(makeSignal({40}, 3, tb))}}};  // sample 2 of input 1 is missing
    feedScripts()["gap"] = script;
    REQUIRE(runGraph(throughOperator("gap", "channels.merge", "{}", {"in0", "in1"}, {"out"})).completed);
    CHECK(contiguousSamples(collections()["gap"].items[0]) == std::vector<float>{1, 10, 2, 20, 3, 0, 4, 40});
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("split refuses a segment that cuts a frame", "[channels][split]") {
    const Timebase& tb = Timebase::get(1000);
    FeedScript script;
    script.batches = {{{0, Item::signal(makeSignal({1, 2, 3}, 0, tb))}}};
    feedScripts()["cut"] = script;
    const RunOutcome outcome = runGraph(throughOperator("cut", "channels.split", R"({"channels": 2})", {"in"}, {"out0", "out1"}));
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures[0], Catch::Contains("does not hold whole frames of 2 channels"));
    feedScripts().clear();
    collections().clear();
}
