// The live localization sample end to end on a virtual microphone array: isochron-run captures the
// simulated scene through PortAudio (samples/localize-live.isograph.json, device isochron_scene4) and
// prints one tracked bearing per source, at the right time and from the right direction.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "tests/capture/capture_test_devices.h"
#include "tests/support/run_command.h"
#include "tests/support/acoustic_simulator.h"

using namespace isochron::test;

TEST_CASE("localize-live.isograph.json captures a virtual array and prints each source's bearing", "[capture][localization]") {
    useTestCaptureDevices();  // sets ALSA_CONFIG_PATH, which the runner inherits
    const auto events = std::filesystem::temp_directory_path() / ("isochron-live-" + std::to_string(getpid()) + ".jsonl");
    const std::string graph = (std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples" / "localize-live.isograph.json").string();
    // The virtual device delivers faster than real time: the ring holds the whole scene.
    const CommandResult run = runProgram(ISOCHRON_RUN_BINARY, graph + " --set source.device=isochron_scene4 --set source.input=device" +
                                                                  " --set source.duration=" + std::to_string(kSceneSeconds) +
                                                                  " --set source.buffer=4 --set events.path=" + events.string() +
                                                                  " --set array.geometry=square4:0.2 --quiet");
    INFO(run.output);
    REQUIRE(run.status == 0);
    std::vector<nlohmann::json> lines;
    std::ifstream in(events);
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    std::filesystem::remove(events);

    REQUIRE(lines.size() == sceneSources().size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const SceneSource& source = sceneSources()[i];
        INFO("source " << i << " at " << source.onsetSeconds << " s from " << source.azimuthDegrees << " deg");
        // Times count from the first captured frame: the scene's own time line.
        CHECK(lines[i]["t_start"].get<double>() > source.onsetSeconds - 0.01);
        CHECK(lines[i]["t_start"].get<double>() < source.onsetSeconds + 0.01);
        CHECK(azimuthError(lines[i]["azimuth_deg"], source.azimuthDegrees) < 5.0);
        CHECK(lines[i].contains("track_id"));
        CHECK(lines[i]["confidence"].get<double>() > 0.3);
    }
}
