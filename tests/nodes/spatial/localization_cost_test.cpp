// Cost per event of the localization operators (for BENCHMARKS.md). Hidden by default (tag
// [.benchmark]); run a Release build with  nodes_tests "[benchmark][localization]" -s . Asserts nothing.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>

#include "tests/nodes/spatial/spatial_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("localization cost per event (table)", "[.benchmark][localization]") {
    const std::size_t eventCount = 40;
    const SourceSignal burst{SourceKind::NoiseBurst, 0.04, 300.0, 8000.0, 1};
    struct Setup {
        std::string name;
        std::string preset;
        std::string type;
        nlohmann::json params;
    };
    const nlohmann::json grid3d = {{"elevation_min_deg", 0.0}, {"elevation_max_deg", 90.0}, {"elevation_step_deg", 2.0}};
    const std::vector<Setup> setups = {
        {"gcc_phat, square4", "square4:0.2", "spatial.gcc_phat", nlohmann::json::object()},
        {"srp_phat, square4, azimuth 1 deg", "square4:0.2", "spatial.srp_phat", nlohmann::json::object()},
        {"aml_doa, square4, azimuth 1 deg", "square4:0.2", "spatial.aml_doa", nlohmann::json::object()},
        {"gcc_phat, circular8", "circular8:0.1", "spatial.gcc_phat", nlohmann::json::object()},
        {"srp_phat, circular8, azimuth 1 deg", "circular8:0.1", "spatial.srp_phat", nlohmann::json::object()},
        {"aml_doa, circular8, azimuth 1 deg", "circular8:0.1", "spatial.aml_doa", nlohmann::json::object()},
        {"srp_phat, circular8, azimuth 1 x elevation 2 deg", "circular8:0.1", "spatial.srp_phat", grid3d},
        {"aml_doa, circular8, azimuth 1 x elevation 2 deg", "circular8:0.1", "spatial.aml_doa", grid3d},
        {"music, square4, azimuth 1 deg", "square4:0.2", "spatial.music", nlohmann::json::object()},
        {"music, circular8, azimuth 1 deg", "circular8:0.1", "spatial.music", nlohmann::json::object()},
        {"music, circular8, 2 sources, azimuth 1 x elevation 2 deg", "circular8:0.1", "spatial.music", {{"sources", 2}, {"elevation_max_deg", 90.0}, {"elevation_step_deg", 2.0}}},
    };
    std::printf("Cost per event of 4096 samples (85 ms at 48 kHz) per channel, block 1024, one engine run of %zu events\n\n"
                "| operator and array | ms per event | share of one core in real time at 1 event/s |\n| --- | --- | --- |\n",
                eventCount);
    for (const Setup& setup : setups) {
        const ArrayGeometry geometry = presetGeometry(setup.preset);
        const auto events = simulateDirections(geometry, randomDirections(eventCount, 0.0, 0.0, 5), 20.0, std::nullopt, burst);
        nlohmann::json params = setup.params;
        params["geometry"] = setup.preset;
        feedScripts()["array"] = arrayEventScript(events, Timebase::get(48000.0));
        const auto started = std::chrono::steady_clock::now();
        const RunOutcome outcome = runGraph(arrayGraph(geometry.micCount(), {{"op", {{"type", setup.type}, {"params", params}}}},
                                                       setup.type == "spatial.gcc_phat" ? "tdoas" : "bearings"));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        REQUIRE(outcome.failures.empty());
        const double milliseconds = 1000.0 * seconds / static_cast<double>(eventCount);
        std::printf("| %s | %.2f | %.1f%% |\n", setup.name.c_str(), milliseconds, milliseconds / 10.0);
        feedScripts().clear();
        collections().clear();
    }
    SUCCEED();
}
