// io.audio_output end to end through real PortAudio and ALSA, against the virtual playback device of
// capture_test_devices.h (no sound card needed): what the graph sends is what the device plays, bit
// for bit and in channel order, and a missing device stops the graph before it starts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "engine/graph/graph_error.h"
#include "tests/capture/capture_test_devices.h"
#include "tests/support/graph_run.h"
#include "tests/support/virtual_mic_array.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// Sample of `channel` in frame `frame`: never zero, unique per channel and frame (modulo 4096).
float playedSample(std::int64_t frame, int channel) { return static_cast<float>((frame % 4096) * 4 + channel + 1) / 32768.0f; }

/// Runs feed (`channels` channels of `frames` frames, in items of random lengths) -> io.audio_output.
RunOutcome play(int channels, std::int64_t frames, const json& params) {
    const json graph = {{"format", "isochron-graph/1"},
                        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "play"}, {"outputs", channels}}}},
                                   {{"id", "speakers"}, {"type", "io.audio_output"}, {"params", params}}}},
                        {"edges", {{{"from", "feed.out*"}, {"to", "speakers.in*"}}}}};
    const Timebase& timebase = Timebase::get(48000);
    std::mt19937 random(8);
    FeedScript script;
    script.outputs = channels;
    for (std::int64_t done = 0; done < frames;) {
        const std::int64_t take = std::min<std::int64_t>(std::uniform_int_distribution<std::int64_t>(1, 3000)(random), frames - done);
        script.batches.emplace_back();
        for (int c = 0; c < channels; ++c) {
            std::vector<float> part;
            for (std::int64_t f = done; f < done + take; ++f) part.push_back(playedSample(f, c));
            script.batches.back().push_back({c, Item::signal(makeSignal(part, done, timebase))});
        }
        done += take;
    }
    feedScripts()["play"] = script;
    RunOutcome outcome;
    try {
        outcome = runGraph(graph.dump());
    } catch (...) {
        feedScripts().clear();
        throw;
    }
    feedScripts().clear();
    return outcome;
}

/// The frames the device played, without the silence before and after.
std::vector<float> playedFrames(int channels) {
    std::ifstream in(playbackRecording(kSpeakers), std::ios::binary);
    std::vector<float> samples;
    float sample = 0;
    while (in.read(reinterpret_cast<char*>(&sample), sizeof sample)) samples.push_back(sample);
    const auto frameIsSilent = [&](std::size_t frame) {
        for (int c = 0; c < channels; ++c) {
            if (samples[frame * static_cast<std::size_t>(channels) + static_cast<std::size_t>(c)] != 0.0f) return false;
        }
        return true;
    };
    std::size_t first = 0, last = samples.size() / static_cast<std::size_t>(channels);
    while (first < last && frameIsSilent(first)) ++first;
    while (last > first && frameIsSilent(last - 1)) --last;
    return {samples.begin() + static_cast<std::ptrdiff_t>(first * channels), samples.begin() + static_cast<std::ptrdiff_t>(last * channels)};
}

}  // namespace

TEST_CASE("io.audio_output plays every frame it receives, bit for bit and in channel order", "[io][audio_output]") {
    useTestCaptureDevices();
    std::filesystem::remove(playbackRecording(kSpeakers));
    const std::int64_t frames = 48000;
    // The whole signal fits the prefill, so playback starts at the end of the run: the device, which
    // has no clock, never waits for the graph.
    const RunOutcome outcome = play(3, frames, {{"device", kSpeakers}, {"channels", 3}, {"buffer", 5.0}, {"prefill", 5.0}});
    REQUIRE(outcome.failures.empty());
    const std::vector<float> played = playedFrames(3);
    REQUIRE(played.size() == static_cast<std::size_t>(frames * 3));
    std::int64_t mismatches = 0;
    for (std::int64_t f = 0; f < frames; ++f) {
        for (int c = 0; c < 3; ++c) mismatches += played[static_cast<std::size_t>(f * 3 + c)] != playedSample(f, c);
    }
    CHECK(mismatches == 0);
}

TEST_CASE("io.audio_output stops the graph before it starts when the device is missing, listing the outputs", "[io][audio_output]") {
    useTestCaptureDevices();
    CHECK_THROWS_WITH(play(1, 100, {{"device", "no_such_speakers"}}),
                      Catch::Contains("node 'speakers'") && Catch::Contains("no output device named 'no_such_speakers'") &&
                          Catch::Contains(kSpeakers));
}

TEST_CASE("io.audio_output with missing_device = ignore runs without a device, saying so", "[io][audio_output]") {
    useTestCaptureDevices();
    const RunOutcome outcome = play(1, 1000, {{"device", "no_such_speakers"}, {"missing_device", "ignore"}});
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
}
