// The README's "localize your own recording" command end to end: isochron-simulate-array writes a
// recording with known source directions, isochron-run runs samples/localize-file.isograph.json on it
// with the geometry file, and every line of the output is one detected source with its bearing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "tests/support/run_command.h"

using namespace isochron::test;

namespace {

/// A simulated source: when it sounds and from where.
struct TrueSource {
    double start;
    double end;
    double azimuth;
};

double azimuthDifference(double a, double b) {
    const double d = std::fmod(std::abs(a - b), 360.0);
    return std::min(d, 360.0 - d);
}

/// Simulates a recording with `simulateOptions`, localizes it with the sample graph and checks
/// detections against the truth; returns the azimuth errors of the detected sources.
std::vector<double> simulateAndLocalize(const std::string& simulateOptions) {
    const auto folder = std::filesystem::temp_directory_path() / ("isochron-localize-" + std::to_string(getpid()));
    std::filesystem::create_directories(folder);
    const auto recording = folder / "recording.wav";
    const auto truthPath = folder / "truth.json";
    const auto geometry = folder / "array.json";
    const auto events = folder / "events.jsonl";
    const CommandResult simulated =
        runProgram(ISOCHRON_SIMULATE_BINARY, "--geometry square4:0.2 --out " + recording.string() + " --truth " + truthPath.string() +
                                                 " --geometry-out " + geometry.string() + " " + simulateOptions);
    INFO(simulated.output);
    REQUIRE(simulated.status == 0);

    const std::string graph = (std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples" / "localize-file.isograph.json").string();
    const CommandResult run = runProgram(ISOCHRON_RUN_BINARY, graph + " --set source.path=" + recording.string() +
                                                                  " --set array.geometry=" + geometry.string() +
                                                                  " --set events.path=" + events.string() + " --quiet");
    INFO(run.output);
    REQUIRE(run.status == 0);

    std::vector<TrueSource> truth;
    const nlohmann::json truthDocument = nlohmann::json::parse(std::ifstream(truthPath));
    for (const auto& event : truthDocument["events"]) {
        truth.push_back({event["t_start"], event["t_end"], event["azimuth_deg"]});
    }
    std::vector<nlohmann::ordered_json> lines;
    std::ifstream in(events);
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::ordered_json::parse(line));
    std::filesystem::remove_all(folder);

    // Each line is exactly the documented record.
    const std::vector<std::string> keys = {"t_start", "t_end", "azimuth_deg", "elevation_deg", "confidence"};
    for (const auto& line : lines) {
        std::vector<std::string> got;
        for (const auto& [key, value] : line.items()) got.push_back(key);
        CHECK(got == keys);
        CHECK(line["t_end"].get<double>() > line["t_start"].get<double>());
        CHECK(line["confidence"].get<double>() >= 0.0);
        CHECK(line["confidence"].get<double>() <= 1.0);
    }
    // One detection per source, in order, where the source sounds (mics hear it within 1 ms of its
    // time at the centre, 5 ms of pre-roll); no detection elsewhere.
    REQUIRE(lines.size() == truth.size());
    std::vector<double> errors;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        INFO("source " << i << " at " << truth[i].start << " s, azimuth " << truth[i].azimuth);
        const double start = lines[i]["t_start"];
        const double end = lines[i]["t_end"];
        CHECK(start >= truth[i].start - 0.01);
        CHECK(start < truth[i].end);
        CHECK(end > truth[i].start);
        CHECK(end < truth[i].end + 0.1);
        CHECK(lines[i]["elevation_deg"].get<double>() == 0.0);  // a planar array searches elevation 0 only here
        errors.push_back(azimuthDifference(lines[i]["azimuth_deg"], truth[i].azimuth));
    }
    return errors;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace

TEST_CASE("localize-file.isograph.json finds every simulated source and its bearing, free field and in a room",
          "[runner][localization]") {
    SECTION("free field, 20 dB SNR") {
        const auto errors = simulateAndLocalize("--duration 6 --events 8 --snr-db 20 --seed 11");
        CHECK(median(errors) <= 5.0);
        CHECK(*std::max_element(errors.begin(), errors.end()) <= 10.0);
    }
    SECTION("room 6 x 5 x 3 m, absorption 0.4, 3 reflections, 20 dB SNR") {
        const auto errors = simulateAndLocalize(
            "--duration 6 --events 8 --snr-db 20 --seed 12 --room 6,5,3 --room-array 2.5,2,1.5 --distance 1.5 --absorption 0.4 --order 3");
        CHECK(median(errors) <= 5.0);
    }
}
