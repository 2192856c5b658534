// spatial.frame_directions (after spatial.array_stft and detect.spectral_activity) on simulated
// scenes: plane waves from known bearings are found by every method; a steady interferer does not capture the direction of a sound over it when its noise
// cross-spectra are subtracted (and does without), and the frames are the same for any segmentation
// and scheduler.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"

#include "nodes/spatial/direction_frame.h"
#include "tests/nodes/spatial/frame_pipeline_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;

/// The pipeline up to the directions; `whitened` false turns off both ways of removing the noise's
/// spatial covariance (subtracting its cross-spectra, projecting out its principal direction).
std::string directionsGraph(int channels, const std::string& geometry, bool whitened, const std::string& method = "srp_phat") {
    const double share = whitened ? 1.0 : 0.0;
    return nlohmann::json{
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "recording"}, {"outputs", channels}}}},
          {{"id", "stft"}, {"type", "spatial.array_stft"}},
          {{"id", "activity"}, {"type", "detect.spectral_activity"}},
          {{"id", "array"}, {"type", "spatial.frame_directions"}, {"params", {{"geometry", geometry}, {"noise_subtraction", share}, {"noise_projection", share}, {"method", method}}}},
          {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "directions"}}}}}},
        {"edges",
         {{{"from", "feed.out*"}, {"to", "stft.in*"}},
          {{"from", "stft.spectra"}, {"to", "activity.spectra"}},
          {{"from", "activity.activity"}, {"to", "array.activity"}},
          {{"from", "array.directions"}, {"to", "sink.in0"}}}}}
        .dump();
}

/// A fan-like interferer (noise, 200-4000 Hz) at 60 degrees from the first sample to the last, and a
/// burst (noise, 500-3500 Hz, 2 dB weaker at the array) at 250 degrees from 2.0 to 2.4 s.
std::vector<std::vector<float>> interfererScene(const ArrayGeometry& geometry) {
    Scene scene;
    scene.geometry = geometry;
    scene.rateHz = kRate;
    scene.lengthSamples = static_cast<std::int64_t>(3.0 * kRate);
    scene.snrDb = 30.0;
    SimulatedEvent fan;
    fan.azimuthDegrees = 60.0;
    fan.distanceMetres = 3.0;
    fan.onsetSample = 0;
    fan.amplitude = 0.5;
    fan.signal = {SourceKind::NoiseBurst, 3.0, 200.0, 4000.0, 11};
    SimulatedEvent burst;
    burst.azimuthDegrees = 250.0;
    burst.distanceMetres = 2.0;
    burst.onsetSample = static_cast<std::int64_t>(2.0 * kRate);
    burst.amplitude = 0.4;
    burst.signal = {SourceKind::NoiseBurst, 0.4, 500.0, 3500.0, 12};
    scene.events = {fan, burst};
    return simulateScene(scene);
}

/// Of the frames wholly inside the burst, the share whose strongest direction is within 10 degrees of `azimuth`.
double shareTowards(const std::vector<Item>& frames, double azimuth) {
    int inside = 0, towards = 0;
    for (const Item& item : frames) {
        const double start = static_cast<double>(item.range().start) / kRate;
        const double end = static_cast<double>(item.range().end()) / kRate;
        if (start < 2.02 || end > 2.4) continue;
        const auto* frame = item.customAs<DirectionFrame>();
        REQUIRE(frame);
        ++inside;
        if (frame->peakCount > 0 && azimuthError(frame->peaks[0].azimuthDegrees, azimuth) < 10.0) ++towards;
    }
    REQUIRE(inside > 20);
    return static_cast<double>(towards) / inside;
}

}  // namespace

TEST_CASE("whitening the noise's spatial covariance keeps a steady interferer from capturing the direction",
          "[spatial][frame_directions]") {
    for (const char* preset : {"circular8:0.046", "square4:0.046"}) {
        INFO(preset);
        const auto recording = interfererScene(presetGeometry(preset));
        runOnRecording(directionsGraph(presetGeometry(preset).micCount(), preset, true), recording, kRate, nullptr);
        const double whitened = shareTowards(collected("directions"), 250.0);
        runOnRecording(directionsGraph(presetGeometry(preset).micCount(), preset, false), recording, kRate, nullptr);
        const double plain = shareTowards(collected("directions"), 250.0);
        const double captured = shareTowards(collected("directions"), 60.0);
        INFO("towards the burst: " << whitened << " whitened, " << plain << " not (" << captured << " towards the interferer)");
        CHECK(whitened > 0.7);
        CHECK(plain < 0.4);
        CHECK(captured > 0.5);
    }
}

TEST_CASE("frame directions do not depend on segmentation or scheduler", "[spatial][frame_directions]") {
    const ArrayGeometry geometry = presetGeometry("square4:0.046");
    const auto recording = interfererScene(geometry);
    runOnRecording(directionsGraph(4, "square4:0.046", true), recording, kRate, nullptr);
    const std::vector<Item> reference = collected("directions");
    std::mt19937 random(8);
    for (const auto& scheduler : schedulerMatrix()) {
        INFO(scheduler);
        runOnRecording(directionsGraph(4, "square4:0.046", true), recording, kRate, &random, scheduler, 3000);
        const std::vector<Item> frames = collected("directions");
        REQUIRE(frames.size() == reference.size());
        for (std::size_t i = 0; i < frames.size(); ++i) {
            const auto* a = frames[i].customAs<DirectionFrame>();
            const auto* b = reference[i].customAs<DirectionFrame>();
            REQUIRE(frames[i].range() == reference[i].range());
            REQUIRE(a->peakCount == b->peakCount);
            for (int p = 0; p < a->peakCount; ++p) {
                CHECK(a->peaks[static_cast<std::size_t>(p)].azimuthDegrees == b->peaks[static_cast<std::size_t>(p)].azimuthDegrees);
                CHECK(a->peaks[static_cast<std::size_t>(p)].value == b->peaks[static_cast<std::size_t>(p)].value);
            }
            CHECK(a->signalBins == b->signalBins);
        }
    }
}

TEST_CASE("GEVD-MUSIC keeps the steady interferer from capturing the direction; plain MUSIC does not", "[spatial][frame_directions]") {
    const auto recording = interfererScene(presetGeometry("circular8:0.046"));
    runOnRecording(directionsGraph(8, "circular8:0.046", true, "gevd_music"), recording, kRate, nullptr);
    const double whitened = shareTowards(collected("directions"), 250.0);
    runOnRecording(directionsGraph(8, "circular8:0.046", true, "music"), recording, kRate, nullptr);
    const double plain = shareTowards(collected("directions"), 250.0);
    INFO("towards the burst: " << whitened << " by GEVD-MUSIC, " << plain << " by MUSIC");
    CHECK(whitened > 0.7);
    CHECK(plain < 0.4);
}

TEST_CASE("every method finds a plane wave's bearing to within 2 degrees, on both arrays", "[spatial][frame_directions]") {
    // Four bursts (noise 300-6000 Hz, 0.4 s) one after the other from known directions, free field,
    // 10 m away (a nearly plane wave across 9 cm), 30 dB above the noise.
    const double azimuths[] = {17.0, 133.0, 251.0, 322.0};
    for (const char* preset : {"circular8:0.046", "square4:0.046"}) {
        Scene scene;
        scene.geometry = presetGeometry(preset);
        scene.rateHz = kRate;
        scene.lengthSamples = static_cast<std::int64_t>(4.2 * kRate);
        scene.snrDb = 30.0;
        for (std::size_t i = 0; i < 4; ++i) {
            SimulatedEvent burst;
            burst.azimuthDegrees = azimuths[i];
            burst.elevationDegrees = 10.0;
            burst.distanceMetres = 10.0;
            burst.onsetSample = static_cast<std::int64_t>((0.8 + 0.8 * static_cast<double>(i)) * kRate);
            burst.signal = {SourceKind::NoiseBurst, 0.4, 300.0, 6000.0, 70 + i};
            scene.events.push_back(burst);
        }
        const auto recording = simulateScene(scene);
        for (const char* method : {"srp_phat", "music", "gevd_music"}) {
            INFO(preset << ", " << method);
            runOnRecording(directionsGraph(scene.geometry.micCount(), preset, true, method), recording, kRate, nullptr);
            const std::vector<Item> frames = collected("directions");
            for (std::size_t i = 0; i < 4; ++i) {
                INFO("burst from " << azimuths[i] << " degrees");
                const double onset = 0.8 + 0.8 * static_cast<double>(i);
                std::vector<double> errors;
                for (const Item& item : frames) {
                    const double start = static_cast<double>(item.range().start) / kRate;
                    if (start < onset || static_cast<double>(item.range().end()) / kRate > onset + 0.4) continue;
                    const auto* frame = item.customAs<DirectionFrame>();
                    REQUIRE(frame);
                    errors.push_back(frame->peakCount > 0 ? azimuthError(frame->peaks[0].azimuthDegrees, azimuths[i]) : 180.0);
                }
                REQUIRE(errors.size() > 25);
                std::sort(errors.begin(), errors.end());
                CHECK(errors[errors.size() / 2] < 2.0);
                CHECK(errors[errors.size() * 9 / 10] < 5.0);
            }
        }
    }
}

namespace {

/// A file `name` in a fresh temporary folder holding `text`.
std::filesystem::path writeTemporary(const std::string& name, const std::string& text) {
    const auto folder = std::filesystem::temp_directory_path() / ("isochron-frame-directions-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(folder);
    const auto path = folder / name;
    std::ofstream(path) << text;
    return path;
}

/// The errors validation finds in `graphJson`.
std::vector<GraphError> validationErrors(const std::string& graphJson) { return checkGraph(parseGraph(graphJson), testRegistry()); }

}  // namespace

TEST_CASE("a geometry that does not fit the audio is refused when the graph is validated, naming the parameter and the file",
          "[spatial][frame_directions][errors]") {
    SECTION("a mic count other than the channels'") {
        const auto eight = writeTemporary("eight.json", R"({"mics": [[0.046, 0, 0], [0.0325, 0.0325, 0], [0, 0.046, 0], [-0.0325, 0.0325, 0],
                                                                   [-0.046, 0, 0], [-0.0325, -0.0325, 0], [0, -0.046, 0], [0.0325, -0.0325, 0]]})");
        const auto errors = validationErrors(directionsGraph(4, eight.string(), true));
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].node == "array");
        CHECK(errors[0].field == "params.geometry");
        CHECK_THAT(errors[0].message, Catch::Contains(eight.string()) && Catch::Contains("8 mics") && Catch::Contains("4 channels") &&
                                          Catch::Contains("'feed'") && Catch::Contains("'stft'"));
        // The same file with as many channels as mics is fine.
        CHECK(validationErrors(directionsGraph(8, eight.string(), true)).empty());
    }
    SECTION("NaN, coincident mics, an empty file") {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {R"({"mics": [[0, 0, 0], [NaN, 0, 0], [0, 1, 0], [1, 1, 0]]})", "mics[1][0] (x) is NaN"},
            {R"({"mics": [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0.1, 0, 0]]})", "mics[1] and mics[3] are at the same position"},
            {"", "is empty"}};
        for (const auto& [text, problem] : cases) {
            const auto file = writeTemporary("bad.json", text);
            const auto errors = validationErrors(directionsGraph(4, file.string(), true));
            INFO(text);
            REQUIRE(errors.size() == 1);
            CHECK(errors[0].node == "array");
            CHECK(errors[0].field == "params.geometry");
            CHECK_THAT(errors[0].message, Catch::Contains(file.string()) && Catch::Contains(problem));
        }
    }
    std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("isochron-frame-directions-test-" + std::to_string(getpid())));
}

TEST_CASE("frames too short for the array name the STFT's frame parameter and the shortest frame that works",
          "[spatial][frame_directions][errors]") {
    // Two mics 5 m apart: 0.7 k samples of delay either way at 48 kHz, more than 1024-sample frames hold.
    const std::string preset = "linear2:5";
    GaussianNoise noise(3);
    std::vector<std::vector<float>> recording(2, std::vector<float>(static_cast<std::size_t>(0.3 * kRate)));
    for (auto& channel : recording) {
        for (float& v : channel) v = static_cast<float>(0.1 * noise.next());
    }
    const auto runWithFrame = [&](std::int64_t frame) {
        auto graph = nlohmann::json::parse(directionsGraph(2, preset, true));
        graph["nodes"][1]["params"] = {{"frame", frame}};
        feedScripts().clear();
        collections().clear();
        feedScripts()["recording"] = recordingScript(recording, Timebase::get(kRate), nullptr, 4096);
        return runGraph(graph.dump());
    };
    const RunOutcome tooShort = runWithFrame(1024);
    REQUIRE(tooShort.failures.size() == 1);
    const std::string& message = tooShort.failures.front();
    INFO(message);
    CHECK_THAT(message, Catch::Contains("node 'stft' (stft.frame)") && Catch::Contains("frames of 1024 samples"));
    // Metres of spacing are more often a geometry in centimetres than a real array: the message asks.
    CHECK_THAT(message, Catch::Contains("is the geometry in centimetres or millimetres?"));
    const auto at = message.find("at least ");
    REQUIRE(at != std::string::npos);
    const std::int64_t shortest = std::stoll(message.substr(at + 9));
    // The frame it names works, and is the shortest that does.
    CHECK(runWithFrame(shortest).failures.empty());
    const RunOutcome oneLess = runWithFrame(shortest - 1);
    REQUIRE(oneLess.failures.size() == 1);
    CHECK_THAT(oneLess.failures.front(), Catch::Contains("at least " + std::to_string(shortest) + " samples"));
}
