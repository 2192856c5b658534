#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/scheduler.h"
#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// out_m[i] = sum_n w[m][n] in_n[i], summed in the same order as a float loop would.
std::vector<std::vector<float>> mixByHand(const std::vector<std::vector<float>>& in, const std::vector<std::vector<float>>& weights) {
    std::vector<std::vector<float>> out(weights.size(), std::vector<float>(in[0].size(), 0.0f));
    for (std::size_t m = 0; m < weights.size(); ++m) {
        for (std::size_t i = 0; i < in[0].size(); ++i) {
            float sum = 0.0f;
            for (std::size_t n = 0; n < in.size(); ++n) sum += weights[m][n] * in[n][i];
            out[m][i] = sum;
        }
    }
    return out;
}

void checkClose(const std::vector<float>& got, const std::vector<float>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::abs(got[i] - expected[i]) > 1e-6f) FAIL("sample " << i << ": " << got[i] << " != " << expected[i]);
    }
}

}  // namespace

TEST_CASE("mix computes a matrix of weighted sums over inputs split at different points", "[channels][mix]") {
    const Timebase& tb = Timebase::get(16000);
    const std::vector<std::vector<float>> in{noise(4000, 21), noise(4000, 22), noise(4000, 23)};
    const std::vector<std::vector<float>> weights{{0.5f, -0.25f, 1.0f}, {0.0f, 2.0f, -1.5f}};
    const auto expected = mixByHand(in, weights);
    const std::string graph = throughOperator("mix", "channels.mix", R"({"outputs": 2, "matrix": [0.5, -0.25, 1, 0, 2, -1.5]})",
                                              {"in0", "in1", "in2"}, {"out0", "out1"});
    for (std::uint32_t seed : {4u, 5u}) {
        for (const auto& scheduler : schedulerMatrix()) {
            INFO("seed " << seed << ", scheduler " << scheduler);
            feedScripts()["mix"] = randomlySplit(in, tb, seed);
            REQUIRE(runGraph(graph, scheduler).completed);
            checkClose(contiguousSamples(collections()["mix"].items[0]), expected[0]);
            checkClose(contiguousSamples(collections()["mix"].items[1]), expected[1]);
            collections().clear();
        }
    }
    feedScripts().clear();
}

TEST_CASE("mix without a matrix averages its inputs, and takes a new matrix live", "[channels][mix]") {
    const Timebase& tb = Timebase::get(16000);
    const std::vector<std::vector<float>> in{noise(1000, 31), noise(1000, 32)};
    feedScripts()["average"] = randomlySplit(in, tb, 9);
    REQUIRE(runGraph(throughOperator("average", "channels.mix", "{}", {"in0", "in1"}, {"out0"})).completed);
    checkClose(contiguousSamples(collections()["average"].items[0]), mixByHand(in, {{0.5f, 0.5f}})[0]);

    collections().clear();
    Engine engine(validateGraph(parseGraph(throughOperator("average", "channels.mix", "{}", {"in0", "in1"}, {"out0"})), testRegistry()),
                  parseSchedulerText("df"));
    engine.postParameter("op", "matrix", std::vector<double>{3.0, -1.0});  // posted before the run: applies to every sample
    REQUIRE(engine.run().completed);
    checkClose(contiguousSamples(collections()["average"].items[0]), mixByHand(in, {{3.0f, -1.0f}})[0]);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("mix refuses a matrix of the wrong size", "[channels][mix]") {
    feedScripts()["wrong"] = {};
    const RunOutcome outcome = [] {
        try {
            return runGraph(throughOperator("wrong", "channels.mix", R"({"matrix": [1, 2, 3]})", {"in0", "in1"}, {"out0"}));
        } catch (const std::exception& e) {
            RunOutcome refused;
            refused.failures.push_back(e.what());
            return refused;
        }
    }();
    REQUIRE(outcome.failures.size() == 1);
    CHECK_THAT(outcome.failures[0], Catch::Contains("1 outputs x 2 inputs need 2"));
    feedScripts().clear();
    collections().clear();
}
