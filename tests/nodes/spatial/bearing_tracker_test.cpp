#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;

Item bearingAt(double seconds, double azimuth) {
    EventRecord* record = EventRecord::create("srp_phat");
    record->set("azimuth_deg", azimuth);
    record->set("confidence", 0.8);
    return Item::event(record, SampleRange{&Timebase::get(kRate), std::llround(seconds * kRate), 2400}, 0.5);
}

std::vector<Item> track(const std::vector<Item>& bearings, const nlohmann::json& params = nlohmann::json::object()) {
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "bearings"}, {"type", "event"}}}},
          {{"id", "tracker"}, {"type", "spatial.bearing_tracker"}, {"params", params}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "tracks"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "tracker.bearings"}}, {{"from", "tracker.tracks"}, {"to", "sink.in0"}}}}};
    FeedScript script;
    for (const Item& item : bearings) script.batches.push_back({{0, item}});
    feedScripts()["bearings"] = script;
    CHECK(runGraph(graph.dump()).failures.empty());
    std::vector<Item> tracks = collections()["tracks"].items[0];
    feedScripts().clear();
    collections().clear();
    return tracks;
}

}  // namespace

TEST_CASE("the bearing tracker keeps two moving sources apart, across the 0/360 wrap", "[spatial][tracker]") {
    // Source A turns from 340 deg through 0 to 60 deg at +4 deg/s; source B sits near 120 deg. Bearings alternate
    // every 0.25 s with seeded 2-degree noise.
    GaussianNoise noise(12);
    std::vector<Item> bearings;
    std::vector<char> truth;
    for (int i = 0; i < 80; ++i) {
        const double t = 0.25 * i;
        const bool fromA = i % 2 == 0;
        const double azimuth = fromA ? std::fmod(340.0 + 4.0 * t, 360.0) : 120.0 + 0.5 * std::sin(t);
        bearings.push_back(bearingAt(t, std::fmod(azimuth + 2.0 * noise.next() + 360.0, 360.0)));
        truth.push_back(fromA ? 'A' : 'B');
    }
    const auto tracks = track(bearings, {{"measurement_deviation", 2.0}, {"process_noise", 1.0}});
    REQUIRE(tracks.size() == bearings.size());
    std::map<char, double> idOf;
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        INFO("bearing " << i << " from " << truth[i]);
        CHECK(attribute(tracks[i], "confidence") == 0.8);  // the input's attributes are kept
        CHECK(tracks[i].range() == bearings[i].range());
        const double id = attribute(tracks[i], "track_id");
        if (!idOf.count(truth[i])) idOf[truth[i]] = id;
        CHECK(id == idOf[truth[i]]);
    }
    CHECK(idOf['A'] != idOf['B']);
    // The filtered rate of A settles near 4 deg/s, B's near 0.
    CHECK(attribute(tracks[tracks.size() - 2], "track_rate_deg_s") == Approx(4.0).margin(1.5));
    CHECK(attribute(tracks[tracks.size() - 1], "track_rate_deg_s") == Approx(0.0).margin(1.5));
}

TEST_CASE("a track ends after max_age without bearings; a later bearing starts a new one", "[spatial][tracker]") {
    const auto tracks = track({bearingAt(0.0, 30.0), bearingAt(1.0, 31.0), bearingAt(10.0, 31.0)}, {{"max_age", 5.0}});
    REQUIRE(tracks.size() == 3);
    CHECK(attribute(tracks[0], "track_id") == 0.0);
    CHECK(attribute(tracks[1], "track_id") == 0.0);
    CHECK(attribute(tracks[2], "track_id") == 1.0);
}
