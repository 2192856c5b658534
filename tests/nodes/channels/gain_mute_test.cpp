#include <catch2/catch.hpp>

#include <cmath>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/scheduler.h"
#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("gain scales every channel of a bus by 10^(dB/20)", "[channels][gain]") {
    const Timebase& tb = Timebase::get(16000);
    const std::vector<std::vector<float>> in{noise(3000, 41), noise(3000, 42)};
    for (double db : {-6.0, 12.5, -120.0}) {
        INFO(db << " dB");
        feedScripts()["gain"] = randomlySplit(in, tb, 3);
        REQUIRE(runGraph(throughOperator("gain", "channels.gain", R"({"channels": 2, "gain_db": )" + std::to_string(db) + "}",
                                         {"in0", "in1"}, {"out0", "out1"}))
                    .completed);
        const float factor = static_cast<float>(std::pow(10.0, db / 20.0));
        for (std::size_t c = 0; c < 2; ++c) {
            const std::vector<float> got = contiguousSamples(collections()["gain"].items[c]);
            REQUIRE(got.size() == in[c].size());
            for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == in[c][i] * factor);
        }
        collections().clear();
    }
    feedScripts().clear();
}

TEST_CASE("gain at 0 dB and an unmuted mute forward segments by reference", "[channels][gain][mute]") {
    const Timebase& tb = Timebase::get(16000);
    for (const char* type : {"channels.gain", "channels.mute"}) {
        INFO(type);
        feedScripts()["reference"] = randomlySplit({noise(2000, 51)}, tb, 5);
        const FeedScript& sent = feedScripts()["reference"];
        REQUIRE(runGraph(throughOperator("reference", type, "{}", {"in0"}, {"out0"})).completed);
        const std::vector<Item>& got = collections()["reference"].items[0];
        REQUIRE(got.size() == sent.batches.size());
        for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i].segment().list() == sent.batches[i][0].second.segment().list());
        collections().clear();
    }
    feedScripts().clear();
}

TEST_CASE("gain and mute change live", "[channels][gain][mute]") {
    const Timebase& tb = Timebase::get(16000);
    const std::vector<float> in = noise(2000, 61);
    feedScripts()["live"] = randomlySplit({in}, tb, 6);
    {
        Engine engine(validateGraph(parseGraph(throughOperator("live", "channels.gain", "{}", {"in0"}, {"out0"})), testRegistry()),
                      parseSchedulerText("df"));
        engine.postParameter("op", "gain_db", -20.0);  // posted before the run: applies to every sample
        REQUIRE(engine.run().completed);
        const std::vector<float> got = contiguousSamples(collections()["live"].items[0]);
        for (std::size_t i = 0; i < in.size(); ++i) REQUIRE(got[i] == in[i] * static_cast<float>(std::pow(10.0, -1.0)));
        collections().clear();
    }
    {
        Engine engine(validateGraph(parseGraph(throughOperator("live", "channels.mute", "{}", {"in0"}, {"out0"})), testRegistry()),
                      parseSchedulerText("df"));
        engine.postParameter("op", "muted", true);
        REQUIRE(engine.run().completed);
        const std::vector<float> got = contiguousSamples(collections()["live"].items[0]);  // zeros over the same samples
        CHECK(got == std::vector<float>(in.size(), 0.0f));
        collections().clear();
    }
    feedScripts().clear();
}
