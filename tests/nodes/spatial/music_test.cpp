// spatial.music: wideband MUSIC bearings, one per expected source.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/graph/graph_error.h"
#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;

/// Bearings of spatial.music with `params` on `events`, one list per input event.
std::vector<std::vector<Item>> musicBearings(const std::vector<ArrayEvent>& events, nlohmann::json params) {
    const int channels = static_cast<int>(events.front().channels.size());
    feedScripts()["array"] = arrayEventScript(events, Timebase::get(kRate));
    REQUIRE(runGraph(arrayGraph(channels, {{"music", {{"type", "spatial.music"}, {"params", params}}}}, "bearings")).failures.empty());
    std::vector<std::vector<Item>> perEvent(events.size());
    for (const Item& bearing : collections()["music"].items[0]) {
        const auto event = std::find_if(events.begin(), events.end(), [&](const ArrayEvent& e) { return e.startIndex == bearing.range().start; });
        REQUIRE(event != events.end());
        perEvent[static_cast<std::size_t>(event - events.begin())].push_back(bearing);
    }
    feedScripts().clear();
    collections().clear();
    return perEvent;
}

}  // namespace

TEST_CASE("MUSIC finds azimuths of a 4-mic square within 5 deg (median) at 20 dB SNR, and elevation with a 3-D array",
          "[spatial][music]") {
    const SourceSignal burst{SourceKind::NoiseBurst, 0.04, 300.0, 8000.0, 1};
    {
        const auto directions = randomDirections(60, 0.0, 0.0, 42);
        const auto events = simulateDirections(presetGeometry("square4:0.2"), directions, 20.0, std::nullopt, burst);
        const auto bearings = musicBearings(events, {{"geometry", "square4:0.2"}, {"band_low_hz", 300.0}, {"band_high_hz", 8000.0}});
        std::vector<double> errors;
        for (std::size_t i = 0; i < directions.size(); ++i) {
            REQUIRE(bearings[i].size() == 1);
            errors.push_back(azimuthError(attribute(bearings[i][0], "azimuth_deg"), directions[i].azimuthDegrees));
            CHECK(attribute(bearings[i][0], "confidence") > 0.1);
            CHECK(bearings[i][0].value() <= 1.0);
        }
        INFO("median " << quantile(errors, 0.5) << " deg, 90th percentile " << quantile(errors, 0.9) << " deg");
        CHECK(quantile(errors, 0.5) <= 5.0);
        CHECK(quantile(errors, 0.9) <= 10.0);
    }
    {
        const auto path = std::filesystem::temp_directory_path() / ("isochron-music-pyramid-" + std::to_string(getpid()) + ".json");
        std::ofstream(path) << R"({"mics": [[0.1, 0.1, 0], [-0.1, 0.1, 0], [-0.1, -0.1, 0], [0.1, -0.1, 0], [0, 0, 0.15]]})";
        const auto directions = randomDirections(40, 0.0, 60.0, 7);
        const auto events = simulateDirections(loadGeometry(path.string()), directions, 20.0, std::nullopt, burst);
        const auto bearings = musicBearings(events, {{"geometry", path.string()}, {"elevation_min_deg", -30.0}, {"elevation_max_deg", 90.0},
                                                     {"elevation_step_deg", 2.0}, {"azimuth_step_deg", 2.0}});
        std::vector<double> elevationErrors;
        for (std::size_t i = 0; i < directions.size(); ++i) {
            REQUIRE(bearings[i].size() == 1);
            elevationErrors.push_back(std::abs(attribute(bearings[i][0], "elevation_deg") - directions[i].elevationDegrees));
        }
        INFO("elevation median " << quantile(elevationErrors, 0.5));
        CHECK(quantile(elevationErrors, 0.5) <= 5.0);
        std::filesystem::remove(path);
    }
}

TEST_CASE("MUSIC with sources = 2 gives a bearing for each of two simultaneous sources", "[spatial][music]") {
    const ArrayGeometry circle = presetGeometry("circular8:0.1");
    const auto first = randomDirections(20, 0.0, 0.0, 5);
    std::vector<ArrayEvent> events;
    std::vector<std::pair<double, double>> truth;
    for (std::size_t i = 0; i < first.size(); ++i) {
        // The second source 60 to 180 deg away from the first, both sounding at once.
        const double second = std::fmod(first[i].azimuthDegrees + 60.0 + 120.0 * static_cast<double>(i) / static_cast<double>(first.size()), 360.0);
        Scene scene;
        scene.geometry = circle;
        scene.lengthSamples = 8192;
        scene.snrDb = 20.0;
        scene.noiseSeed = 300 + i;
        for (const double azimuth : {first[i].azimuthDegrees, second}) {
            SimulatedEvent event;
            event.azimuthDegrees = azimuth;
            event.distanceMetres = 3.0;
            event.onsetSample = 2048;
            event.signal = {SourceKind::NoiseBurst, 0.06, 300.0, 8000.0, 400 + i * 2 + (azimuth == second ? 1 : 0)};
            scene.events.push_back(event);
        }
        ArrayEvent cut = cutEvent(simulateScene(scene), 1024, 4096);
        cut.startIndex = static_cast<std::int64_t>(i) * 8192 + 1024;
        events.push_back(std::move(cut));
        truth.emplace_back(first[i].azimuthDegrees, second);
    }
    const auto bearings = musicBearings(events, {{"geometry", "circular8:0.1"}, {"sources", 2}, {"band_low_hz", 300.0}, {"band_high_hz", 8000.0}});
    std::vector<double> errors;
    for (std::size_t i = 0; i < events.size(); ++i) {
        INFO("event " << i << ": sources at " << truth[i].first << " and " << truth[i].second << " deg");
        REQUIRE(bearings[i].size() == 2);
        const double a = attribute(bearings[i][0], "azimuth_deg");
        const double b = attribute(bearings[i][1], "azimuth_deg");
        CHECK(bearings[i][0].value() >= bearings[i][1].value());  // strongest first
        // Match the two bearings to the two sources the better way round.
        const double straight = azimuthError(a, truth[i].first) + azimuthError(b, truth[i].second);
        const double crossed = azimuthError(a, truth[i].second) + azimuthError(b, truth[i].first);
        if (straight <= crossed) {
            errors.push_back(azimuthError(a, truth[i].first));
            errors.push_back(azimuthError(b, truth[i].second));
        } else {
            errors.push_back(azimuthError(a, truth[i].second));
            errors.push_back(azimuthError(b, truth[i].first));
        }
    }
    INFO("median " << quantile(errors, 0.5) << " deg, 90th percentile " << quantile(errors, 0.9) << " deg");
    CHECK(quantile(errors, 0.5) <= 5.0);
    CHECK(quantile(errors, 0.9) <= 10.0);
}

TEST_CASE("MUSIC refuses as many sources as mics, naming the node", "[spatial][music]") {
    feedScripts()["array"] = FeedScript{};
    feedScripts()["array"].outputs = 4;
    try {
        runGraph(arrayGraph(4, {{"music", {{"type", "spatial.music"}, {"params", {{"geometry", "square4:0.2"}, {"sources", 4}}}}}}, "bearings"));
        FAIL("the graph started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("node 'music'") && Catch::Contains("4 sources need more than 4 mics"));
    }
    feedScripts().clear();
    collections().clear();
}
