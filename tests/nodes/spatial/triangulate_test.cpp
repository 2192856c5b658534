#include <catch2/catch.hpp>

#include <cmath>

#include "engine/graph/graph_error.h"
#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;

/// A bearing event of `azimuth` (degrees) over samples [start, start + 4800).
Item bearing(double azimuth, std::int64_t start, double confidence = 1.0) {
    EventRecord* record = EventRecord::create("srp_phat");
    record->set("azimuth_deg", azimuth);
    record->set("confidence", confidence);
    return Item::event(record, SampleRange{&Timebase::get(kRate), start, 4800}, 1.0);
}

/// Azimuth of `target` seen from an array at `position` whose azimuth 0 points along map angle `heading`.
double azimuthTowards(Eigen::Vector2d target, Eigen::Vector2d position, double heading) {
    const Eigen::Vector2d offset = target - position;
    return std::atan2(offset.y(), offset.x()) * 180.0 / M_PI - heading;
}

/// Runs spatial.triangulate over per-array bearing lists (one batch per array, in order).
std::vector<Item> triangulate(const std::vector<double>& poses, const std::vector<std::vector<Item>>& bearings) {
    const int arrays = static_cast<int>(bearings.size());
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "bearings"}, {"outputs", arrays}, {"type", "event"}}}},
          {{"id", "where"}, {"type", "spatial.triangulate"}, {"params", {{"arrays", 0}, {"array_poses", poses}}}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "positions"}}}}}},
        {"edges", {{{"from", "feed.out*"}, {"to", "where.bearings*"}}, {{"from", "where.positions"}, {"to", "sink.in0"}}}}};
    FeedScript script;
    script.outputs = arrays;
    for (int array = arrays - 1; array >= 0; --array) {  // last array first: matching must not depend on arrival
        script.batches.emplace_back();
        for (const Item& item : bearings[static_cast<std::size_t>(array)]) script.batches.back().push_back({array, item});
    }
    feedScripts()["bearings"] = script;
    const RunOutcome outcome = runGraph(graph.dump());  // throws if the node refuses to start
    CHECK(outcome.failures.empty());
    std::vector<Item> positions = collections()["positions"].items[0];
    feedScripts().clear();
    collections().clear();
    return positions;
}

}  // namespace

TEST_CASE("triangulation intersects exact bearings at the source", "[spatial][triangulate]") {
    const Eigen::Vector2d a(0, 0), b(10, 0), c(5, 12);
    const std::vector<double> poses = {a.x(), a.y(), 0.0, b.x(), b.y(), 90.0, c.x(), c.y(), -45.0};
    const std::vector<Eigen::Vector2d> sources = {{4, 6}, {-3, 8}, {7, 2}};
    std::vector<std::vector<Item>> bearings(3);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const auto start = static_cast<std::int64_t>(i) * 48000;
        bearings[0].push_back(bearing(azimuthTowards(sources[i], a, 0.0), start));
        bearings[1].push_back(bearing(azimuthTowards(sources[i], b, 90.0), start + 300));  // heard 6 ms later
        bearings[2].push_back(bearing(azimuthTowards(sources[i], c, -45.0), start + 150));
    }
    const auto positions = triangulate(poses, bearings);
    REQUIRE(positions.size() == sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
        INFO("source " << i);
        CHECK(attribute(positions[i], "x_m") == Approx(sources[i].x()).margin(1e-9));
        CHECK(attribute(positions[i], "y_m") == Approx(sources[i].y()).margin(1e-9));
        CHECK(attribute(positions[i], "residual_m") < 1e-9);
        CHECK(positions[i].range() == bearings[0][i].range());
    }
}

TEST_CASE("triangulation skips sounds one array missed and bearings that cannot meet", "[spatial][triangulate]") {
    const std::vector<double> poses = {0, 0, 0, 10, 0, 0};
    const Eigen::Vector2d source(5, 5);
    std::vector<std::vector<Item>> bearings(2);
    bearings[0] = {bearing(45.0, 0), bearing(45.0, 100000), bearing(10.0, 200000), bearing(45.0, 300000)};
    // Array 1 missed the first sound; its third bearing diverges from array 0's (lines meet behind it).
    bearings[1] = {bearing(135.0, 100200), bearing(5.0, 200200), bearing(135.0, 300100)};
    const auto positions = triangulate(poses, bearings);
    REQUIRE(positions.size() == 2);
    CHECK(positions[0].range().start == 100000);
    CHECK(positions[1].range().start == 300000);
    for (const Item& position : positions) {
        CHECK(attribute(position, "x_m") == Approx(source.x()).margin(1e-9));
        CHECK(attribute(position, "y_m") == Approx(source.y()).margin(1e-9));
    }
}

TEST_CASE("triangulation refuses poses that do not match the arrays", "[spatial][triangulate]") {
    CHECK_THROWS_AS(triangulate({0, 0, 0, 1, 1}, {{bearing(0.0, 0)}, {bearing(0.0, 0)}}), GraphException);
    feedScripts().clear();
    collections().clear();
}
