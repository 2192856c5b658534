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
/// detections against the truth (extra, weaker lines over a source only if `reflectionsAllowed`);
/// returns the azimuth errors of the sources.
std::vector<double> simulateAndLocalize(const std::string& simulateOptions, bool reflectionsAllowed) {
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
    const std::vector<std::string> keys = {"t_start", "t_end", "azimuth_deg", "elevation_deg", "confidence", "track_id"};
    for (const auto& line : lines) {
        std::vector<std::string> got;
        for (const auto& [key, value] : line.items()) got.push_back(key);
        CHECK(got == keys);
        CHECK(line["t_end"].get<double>() > line["t_start"].get<double>());
        CHECK(line["confidence"].get<double>() >= 0.0);
        CHECK(line["confidence"].get<double>() <= 1.0);
    }
    // Each source has its line where it sounds (frames are 21 ms: the start within half a frame), the
    // most confident of those starting then; nothing elsewhere. Strong specular reflections (only in
    // the room) may add weaker lines over a source. Every line its own track.
    std::vector<double> errors;
    std::vector<char> explained(lines.size(), 0);
    for (const TrueSource& source : truth) {
        INFO("source at " << source.start << " s, azimuth " << source.azimuth);
        std::size_t best = lines.size();
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (std::abs(lines[i]["t_start"].get<double>() - source.start) > 0.011) continue;
            if (best == lines.size() || lines[i]["confidence"] > lines[best]["confidence"]) best = i;
        }
        REQUIRE(best < lines.size());
        const double end = lines[best]["t_end"];
        CHECK(end > source.start);
        CHECK(end < source.end + 0.1);
        // The sources are level with the array; the search spans 0 .. 30 degrees up.
        CHECK(lines[best]["elevation_deg"].get<double>() >= 0.0);
        CHECK(lines[best]["elevation_deg"].get<double>() <= 30.0);
        errors.push_back(azimuthDifference(lines[best]["azimuth_deg"], source.azimuth));
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (lines[i]["t_end"].get<double>() < source.start || lines[i]["t_start"].get<double>() > source.end) continue;
            explained[i] = 1;
            if (i == best) continue;
            CHECK(reflectionsAllowed);
            CHECK(lines[i]["confidence"].get<double>() < lines[best]["confidence"].get<double>());
        }
    }
    CHECK(std::count(explained.begin(), explained.end(), 0) == 0);
    std::vector<double> trackIds;
    for (const auto& line : lines) trackIds.push_back(line["track_id"].get<double>());
    std::sort(trackIds.begin(), trackIds.end());
    CHECK(std::adjacent_find(trackIds.begin(), trackIds.end()) == trackIds.end());
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
        const auto errors = simulateAndLocalize("--duration 6 --events 8 --snr-db 20 --seed 11", false);
        CHECK(median(errors) <= 5.0);
        CHECK(*std::max_element(errors.begin(), errors.end()) <= 10.0);
    }
    SECTION("room 6 x 5 x 3 m, absorption 0.4, 3 reflections, 20 dB SNR") {
        const auto errors = simulateAndLocalize(
            "--duration 6 --events 8 --snr-db 20 --seed 12 --room 6,5,3 --room-array 2.5,2,1.5 --distance 1.5 --absorption 0.4 --order 3",
            true);
        CHECK(median(errors) <= 5.0);
    }
}
