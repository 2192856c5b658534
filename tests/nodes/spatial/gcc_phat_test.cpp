#include <catch2/catch.hpp>

#include <cmath>

#include "engine/graph/graph_error.h"
#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;

/// Runs spatial.gcc_phat with `params` over `events` and returns its output events.
std::vector<Item> runGccPhat(const nlohmann::json& params, const std::vector<ArrayEvent>& events) {
    const int channels = static_cast<int>(events.front().channels.size());
    feedScripts()["array"] = arrayEventScript(events, Timebase::get(kRate));
    const RunOutcome outcome = runGraph(arrayGraph(channels, {{"gcc", {{"type", "spatial.gcc_phat"}, {"params", params}}}}, "tdoas"));
    CHECK(outcome.failures.empty());
    std::vector<Item> out = collections()["gcc"].items[0];
    feedScripts().clear();
    collections().clear();
    return out;
}

}  // namespace

TEST_CASE("GCC-PHAT finds integer delays exactly", "[spatial][gcc]") {
    // Mic i hears the same white noise delay[i] samples after mic 0 (negative: before).
    const std::vector<int> delays = {0, 3, -5, 12, 1};
    GaussianNoise noise(5);
    std::vector<float> source(6000);
    for (float& s : source) s = static_cast<float>(noise.next());
    ArrayEvent event;
    event.startIndex = 480;
    for (int delay : delays) {
        event.channels.emplace_back(source.begin() + 100 - delay, source.begin() + 100 - delay + 4096);
    }
    const auto out = runGccPhat({{"max_delay", 0.0005}}, {event});
    REQUIRE(out.size() == 1);
    CHECK(out[0].range() == SampleRange{&Timebase::get(kRate), 480, 4096});
    CHECK(std::string(out[0].event()->label()) == "gcc_phat");
    for (std::size_t i = 1; i < delays.size(); ++i) {
        INFO("mic " << i << " delayed " << delays[i] << " samples");
        CHECK(attribute(out[0], "tdoa_" + std::to_string(i)) * kRate == Approx(delays[i]).margin(0.05));
        CHECK(attribute(out[0], "peak_" + std::to_string(i)) > 0.9);
    }
    CHECK(out[0].value() > 0.9);
}

TEST_CASE("GCC-PHAT resolves fractional delays to a small fraction of a sample", "[spatial][gcc]") {
    // A far source seen by a linear array whose mic spacing is a fractional number of samples.
    const double spacingSamples = 2.3;
    Scene scene;
    scene.geometry = presetGeometry("linear4:" + std::to_string(spacingSamples * kSpeedOfSoundMetresPerSecond / kRate));
    scene.lengthSamples = 8192;
    SimulatedEvent source;
    source.distanceMetres = 5000.0;
    source.onsetSample = 2048;
    source.signal = {SourceKind::NoiseBurst, 0.05, 100.0, 20000.0, 3};
    for (double azimuth : {90.0, 30.0, -70.0}) {
        INFO("azimuth " << azimuth);
        source.azimuthDegrees = azimuth;
        scene.events = {source};
        const ArrayEvent event = cutEvent(simulateScene(scene), 1024, 4096);
        const auto out = runGccPhat({{"band_high_hz", 20000.0}, {"max_delay", 0.001}}, {event});
        REQUIRE(out.size() == 1);
        const auto expected = steeringDelays(scene.geometry, directionVector(azimuth, 0.0));
        for (int mic = 1; mic < 4; ++mic) {
            INFO("mic " << mic);
            const double truth = (expected[static_cast<std::size_t>(mic)] - expected[0]) * kRate;
            CHECK(attribute(out[0], "tdoa_" + std::to_string(mic)) * kRate == Approx(truth).margin(0.02));
        }
    }
}

TEST_CASE("GCC-PHAT bounds each pair's search by the geometry", "[spatial][gcc]") {
    // A 40-sample delay between mics 2 cm apart is impossible: the search stays within +-(0.02 / c) s + 1 sample.
    GaussianNoise noise(9);
    std::vector<float> source(5000);
    for (float& s : source) s = static_cast<float>(noise.next());
    ArrayEvent event;
    event.channels = {std::vector<float>(source.begin() + 100, source.begin() + 2100),
                      std::vector<float>(source.begin() + 60, source.begin() + 2060)};
    const auto bounded = runGccPhat({{"geometry", "linear2:0.02"}}, {event});
    REQUIRE(bounded.size() == 1);
    CHECK(std::abs(attribute(bounded[0], "tdoa_1")) <= 0.02 / kSpeedOfSoundMetresPerSecond + 2.0 / kRate);
    const auto unbounded = runGccPhat(nlohmann::json::object(), {event});
    CHECK(attribute(unbounded[0], "tdoa_1") * kRate == Approx(40.0).margin(0.05));
}

TEST_CASE("spatial operators refuse a geometry whose mic count differs from their inputs", "[spatial][gcc]") {
    for (const char* type : {"spatial.gcc_phat", "spatial.srp_phat", "spatial.aml_doa"}) {
        INFO(type);
        feedScripts()["array"] = FeedScript{{}, 3};
        const std::string graph = arrayGraph(3, {{"op", {{"type", type}, {"params", {{"geometry", "square4:0.2"}}}}}},
                                             std::string(type) == "spatial.gcc_phat" ? "tdoas" : "bearings");
        try {
            runGraph(graph);
            FAIL("the graph started");
        } catch (const GraphException& e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains("square4:0.2") && Catch::Contains("has 4 mics but the node has 3 inputs"));
        }
        feedScripts().clear();
        collections().clear();
    }
}
