#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// Runs a workload.tuple_source with `params` (and `streams`) into a collector; its items per stream.
std::vector<std::vector<Item>> generate(json params, int streams, const std::string& scheduler = "df") {
    params["streams"] = streams;
    RunOutcome outcome = runGraph(sourceToCollect("workload.tuple_source", params, streams, "tuples"), scheduler);
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    CHECK(collections()["tuples"].finished);
    std::vector<std::vector<Item>> items = collections()["tuples"].items;
    collections().clear();
    return items;
}

}  // namespace

TEST_CASE("tuple_source gives every stream count items, rounded up to whole bursts, numbered in order",
          "[workload][tuple_source]") {
    for (const bool aligned : {false, true}) {
        for (const auto& [count, burst, expected] : {std::tuple{5, 2, 6}, {6, 3, 6}, {7, 1, 7}, {1, 4, 4}}) {
            INFO("aligned " << aligned << ", count " << count << ", burst " << burst);
            const auto streams = generate({{"count", count}, {"burst", burst}, {"aligned", aligned}, {"pace", 0}}, 3);
            REQUIRE(streams.size() == 3);
            std::vector<std::int64_t> positions;
            for (const auto& stream : streams) {
                REQUIRE(stream.size() == static_cast<std::size_t>(expected));
                for (std::size_t k = 0; k < stream.size(); ++k) {
                    CHECK(stream[k].kind() == ItemKind::Scalar);
                    CHECK(stream[k].value() == static_cast<double>(k));
                    positions.push_back(stream[k].range().start);
                }
            }
            // Positions number the items of all streams together: each exactly once.
            std::sort(positions.begin(), positions.end());
            for (std::size_t p = 0; p < positions.size(); ++p) CHECK(positions[p] == static_cast<std::int64_t>(p));
        }
    }
}

TEST_CASE("tuple_source stamps bursts with their due times: staggered across streams or aligned",
          "[workload][tuple_source][timing]") {
    constexpr double kRate = 400;  // items/s per stream: a burst of 2 every 5 ms
    constexpr int kBurst = 2;
    constexpr int kStreams = 2;
    constexpr TimeNs kPeriodNs = 5'000'000;
    for (const bool aligned : {false, true}) {
        INFO("aligned " << aligned);
        const auto streams = generate({{"rate", kRate}, {"burst", kBurst}, {"count", 8}, {"aligned", aligned}}, kStreams);
        const TimeNs first = streams[0][0].arrivalNs();
        REQUIRE(first > 0);
        for (int s = 0; s < kStreams; ++s) {
            REQUIRE(streams[static_cast<std::size_t>(s)].size() == 8);
            for (int k = 0; k < 8; ++k) {
                const int burstIndex = k / kBurst;
                // Staggered: stream s's bursts come s/streams of a period after stream 0's.
                const TimeNs offset = aligned ? 0 : s * kPeriodNs / kStreams;
                const TimeNs expected = first + burstIndex * kPeriodNs + offset;
                CHECK(std::abs(streams[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)].arrivalNs() - expected) <= 1);
            }
        }
    }
}
