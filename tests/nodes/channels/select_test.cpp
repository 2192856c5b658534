#include <catch2/catch.hpp>

#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("select reorders and repeats channels by reference under every scheduler", "[channels][select]") {
    const Timebase& tb = Timebase::get(8000);
    const std::vector<std::vector<float>> channels{noise(3000, 1), noise(3000, 2), noise(3000, 3)};
    const std::string graph = throughOperator("select", "channels.select", R"({"inputs": 3, "channels": [2, 0, 2]})",
                                              {"in0", "in1", "in2"}, {"out0", "out1", "out2"});
    for (const auto& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        feedScripts()["select"] = randomlySplit(channels, tb, 7);
        const FeedScript& sent = feedScripts()["select"];
        REQUIRE(runGraph(graph, scheduler).completed);
        const Collected& got = collections()["select"];
        CHECK(contiguousSamples(got.items[0]) == channels[2]);
        CHECK(contiguousSamples(got.items[1]) == channels[0]);
        CHECK(contiguousSamples(got.items[2]) == channels[2]);
        // The segments that came out are the ones that went in: same storage, nothing copied.
        std::vector<const SegmentList*> sentChannel2;
        for (const auto& batch : sent.batches) {
            if (batch[0].first == 2) sentChannel2.push_back(batch[0].second.segment().list());
        }
        REQUIRE(got.items[0].size() == sentChannel2.size());
        for (std::size_t i = 0; i < sentChannel2.size(); ++i) {
            CHECK(got.items[0][i].segment().list() == sentChannel2[i]);
            CHECK(got.items[2][i].segment().list() == sentChannel2[i]);
        }
        CHECK(got.finished);
        collections().clear();
    }
    feedScripts().clear();
}

TEST_CASE("select refuses a channel the bus does not have, and an output count that disagrees", "[channels][select]") {
    feedScripts()["select"] = {};
    CHECK_THROWS_WITH(runGraph(throughOperator("select", "channels.select", R"({"inputs": 2, "channels": [0, 2]})", {"in0", "in1"}, {"out0"})),
                      Catch::Contains("channel 2 does not exist"));
    CHECK_THROWS_WITH(runGraph(throughOperator("select", "channels.select", R"({"channels": [0, 1.5]})", {"in0", "in1"}, {"out0"})),
                      Catch::Contains("whole numbers"));
    CHECK_THROWS_WITH(runGraph(throughOperator("select", "channels.select", R"({"channels": [0, 1], "outputs": 3})", {"in0", "in1"}, {"out0"})),
                      Catch::Contains("outputs is 3 but channels lists 2"));
    feedScripts().clear();
    collections().clear();
}
