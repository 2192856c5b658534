// isochron-simulate-array end to end: its ground truth describes what its recording holds (sources
// inside the room, at the asked distance, within the recording, a click where the click is).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sndfile.h>
#include <unistd.h>

#include "tests/support/run_command.h"

using namespace isochron::test;

namespace {

std::filesystem::path folder() {
    const auto path = std::filesystem::temp_directory_path() / ("isochron-simulate-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    return path;
}

CommandResult simulate(const std::string& options) { return runProgram(ISOCHRON_SIMULATE_BINARY, options); }

nlohmann::json readTruth(const std::filesystem::path& path) { return nlohmann::json::parse(std::ifstream(path)); }

/// Every channel of a sound file, [channel][sample], and its rate.
std::vector<std::vector<float>> readChannels(const std::filesystem::path& path, double& rateHz) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    REQUIRE(file != nullptr);
    std::vector<float> interleaved(static_cast<std::size_t>(info.frames * info.channels));
    sf_readf_float(file, interleaved.data(), info.frames);
    sf_close(file);
    rateHz = info.samplerate;
    std::vector<std::vector<float>> channels(static_cast<std::size_t>(info.channels), std::vector<float>(static_cast<std::size_t>(info.frames)));
    for (std::size_t i = 0; i < static_cast<std::size_t>(info.frames); ++i) {
        for (std::size_t c = 0; c < channels.size(); ++c) channels[c][i] = interleaved[i * channels.size() + c];
    }
    return channels;
}

/// A mono float WAV of `seconds` of a 440 Hz tone at `rateHz`.
void writeTone(const std::filesystem::path& path, double seconds, int rateHz) {
    SF_INFO info{};
    info.samplerate = rateHz;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    REQUIRE(file != nullptr);
    std::vector<float> samples(static_cast<std::size_t>(seconds * rateHz));
    for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(0.5 * std::sin(2.0 * 3.14159265358979 * 440.0 * static_cast<double>(i) / rateHz));
    sf_writef_float(file, samples.data(), static_cast<sf_count_t>(samples.size()));
    sf_close(file);
}

}  // namespace

TEST_CASE("isochron-simulate-array refuses a source outside the room, saying which and what to change", "[runner][simulate]") {
    const auto dir = folder();
    const std::string room = " --room 6,5,3 --room-array 2.5,2,1.5 --duration 0.5 --events 4 --seed 5";
    const CommandResult outside = simulate("--geometry square4:0.2 --out " + (dir / "a.wav").string() + room + " --distance 4");
    INFO(outside.output);
    CHECK(outside.status == 2);
    CHECK_THAT(outside.output, Catch::Contains("outside the 6.00 x 5.00 x 3.00 m room") && Catch::Contains("--distance"));
    CHECK(simulate("--geometry square4:0.2 --out " + (dir / "a.wav").string() + room + " --distance 1").status == 0);
    const CommandResult arrayOutside = simulate("--geometry square4:0.2 --out " + (dir / "a.wav").string() +
                                                " --room 6,5,3 --room-array 7,2,1.5 --distance 1 --duration 0.5");
    CHECK(arrayOutside.status == 2);
    CHECK_THAT(arrayOutside.output, Catch::Contains("mic 0") && Catch::Contains("--room-array"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("isochron-simulate-array places --target and its interferer at --distance", "[runner][simulate]") {
    const auto dir = folder();
    const auto target = dir / "tone.wav";
    writeTone(target, 0.3, 48000);
    const std::string common = "--geometry square4:0.2 --out " + (dir / "a.wav").string() + " --truth " + (dir / "t.json").string() +
                               " --target " + target.string() + " --target-azimuth 60 --interferer-azimuth 200";
    REQUIRE(simulate(common + " --distance 1.5").status == 0);
    const nlohmann::json truth = readTruth(dir / "t.json");  // named: a loop over a temporary's member dangles
    for (const auto& event : truth["events"]) CHECK(event["distance_m"].get<double>() == 1.5);
    // In a 6 x 5 m room with the array at (2.5, 2): 3.5 m towards 60 degrees is outside, 1.5 m is not.
    const std::string room = " --room 6,5,3 --room-array 2.5,2,1.5";
    CHECK(simulate(common + room + " --distance 1.5").status == 0);
    const CommandResult far = simulate(common + room + " --distance 3.5");
    CHECK(far.status == 2);
    CHECK_THAT(far.output, Catch::Contains("3.50 m from the array"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("isochron-simulate-array's truth lists only what the recording holds", "[runner][simulate]") {
    const auto dir = folder();
    const auto truthPath = dir / "t.json";
    SECTION("a sound cut by the end ends with the recording") {
        REQUIRE(simulate("--geometry square4:0.2 --out " + (dir / "a.wav").string() + " --truth " + truthPath.string() +
                         " --duration 1 --events 2 --event-duration 0.6")
                    .status == 0);
        const auto events = readTruth(truthPath)["events"];
        REQUIRE(events.size() == 2);
        CHECK(events[0]["t_end"].get<double>() == Approx(0.85));
        CHECK(events[1]["t_start"].get<double>() == Approx(0.75));
        CHECK(events[1]["t_end"].get<double>() == Approx(1.0));
    }
    SECTION("a sound that would arrive after the end is left out, and says so") {
        // Places anywhere in a 30 x 30 m room: most sound takes longer than 25 ms to reach the corner array.
        const CommandResult result = simulate("--geometry square4:0.2 --out " + (dir / "a.wav").string() + " --truth " + truthPath.string() +
                                              " --duration 0.05 --events 4 --positions room --room 30,30,3 --room-array 1,1,1.5 --seed 2");
        INFO(result.output);
        REQUIRE(result.status == 0);
        const auto events = readTruth(truthPath)["events"];
        CHECK(events.size() < 4);
        CHECK_THAT(result.output, Catch::Contains("after the recording ends"));
        for (const auto& event : events) {
            CHECK(event["t_start"].get<double>() < 0.05);
            CHECK(event["t_end"].get<double>() <= 0.05);
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("isochron-simulate-array's truth span of a click covers the click, not its whole window", "[runner][simulate]") {
    const auto dir = folder();
    const auto recording = dir / "a.wav";
    REQUIRE(simulate("--geometry square4:0.2 --out " + recording.string() + " --truth " + (dir / "t.json").string() +
                     " --signal click --event-duration 0.05 --events 3 --duration 0.6 --snr-db 200 --seed 4")
                .status == 0);
    double rate = 0.0;
    const auto channels = readChannels(recording, rate);
    const auto events = readTruth(dir / "t.json")["events"];
    REQUIRE(events.size() == 3);
    for (const auto& event : events) {
        const double start = event["t_start"].get<double>();
        const double end = event["t_end"].get<double>();
        INFO("truth " << start << " .. " << end);
        CHECK(end - start < 0.01);  // a click, not the 50 ms window
        // The recording's energy around this event (its third of the recording) lies within the span, give or
        // take the array's travel time (0.2 m: well under 1 ms).
        const auto third = static_cast<std::size_t>(rate * 0.2);
        const auto first = static_cast<std::size_t>(std::max(0.0, start - 0.001) * rate);
        const auto last = static_cast<std::size_t>((end + 0.001) * rate);
        const std::size_t block = first / third;
        double inside = 0.0, total = 0.0;
        for (const auto& channel : channels) {
            for (std::size_t i = block * third; i < std::min(channel.size(), (block + 1) * third); ++i) {
                const double power = static_cast<double>(channel[i]) * channel[i];
                total += power;
                if (i >= first && i <= last) inside += power;
            }
        }
        REQUIRE(total > 0.0);
        CHECK(inside / total > 0.98);
    }
    std::filesystem::remove_all(dir);
}
