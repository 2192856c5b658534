// io.sound_file_sink: FLAC and WAV read back within half a code of what was written, Ogg Vorbis and
// Opus keep a tone's frequency and level, the container follows the extension, bad settings are named.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/graph/graph_error.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// feed (channels as items of random lengths and pieces) -> io.sound_file_sink with `params`.
RunReport writeChannels(const std::vector<std::vector<float>>& channels, double rate, json params, std::uint32_t seed = 1) {
    const int count = static_cast<int>(channels.size());
    params["channels"] = count;
    const json graph = {{"format", "isochron-graph/1"},
                        {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "sound"}, {"outputs", count}}}},
                                   {{"id", "sink"}, {"type", "io.sound_file_sink"}, {"params", params}}}},
                        {"edges", {{{"from", "feed.out*"}, {"to", "sink.in*"}}}}};
    std::mt19937 random(seed);
    FeedScript script;
    script.outputs = count;
    const Timebase& timebase = Timebase::get(rate);
    for (std::size_t done = 0; done < channels.front().size();) {
        const std::size_t take = std::min<std::size_t>(std::uniform_int_distribution<std::size_t>(1, 5000)(random), channels.front().size() - done);
        script.batches.emplace_back();
        for (int c = 0; c < count; ++c) {
            const auto& samples = channels[static_cast<std::size_t>(c)];
            std::vector<float> part(samples.begin() + static_cast<std::ptrdiff_t>(done), samples.begin() + static_cast<std::ptrdiff_t>(done + take));
            script.batches.back().push_back({c, Item::signal(makeSignal(part, static_cast<std::int64_t>(done), timebase))});
        }
        done += take;
    }
    feedScripts()["sound"] = script;
    RunReport report;
    try {
        report = runGraphReporting(graph.dump());
    } catch (...) {
        feedScripts().clear();
        throw;
    }
    feedScripts().clear();
    return report;
}

std::vector<std::vector<float>> noise(int channels, std::size_t length, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-0.95f, 0.95f);
    std::vector<std::vector<float>> out(static_cast<std::size_t>(channels), std::vector<float>(length));
    for (auto& channel : out) {
        for (float& s : channel) s = uniform(random);
    }
    return out;
}

/// Power of `samples` at `hz` (Goertzel, as a sine amplitude^2 / 2) over the whole signal.
double tonePower(const std::vector<float>& samples, double hz, double rate) {
    std::complex<double> sum;
    for (std::size_t n = 0; n < samples.size(); ++n) sum += static_cast<double>(samples[n]) * std::polar(1.0, -2.0 * std::numbers::pi * hz * n / rate);
    const double amplitude = 2.0 * std::abs(sum) / static_cast<double>(samples.size());
    return amplitude * amplitude / 2.0;
}

double meanPower(const std::vector<float>& samples) {
    double sum = 0.0;
    for (float s : samples) sum += static_cast<double>(s) * s;
    return sum / static_cast<double>(samples.size());
}

}  // namespace

TEST_CASE("io.sound_file_sink writes FLAC and WAV that read back within half a code", "[io][sound_file_sink]") {
    TempDir dir;
    const auto channels = noise(3, 30000, 4);
    struct Case {
        const char* file;
        const char* samples;
        double step;  // one code
    };
    for (const Case& c : {Case{"a.flac", "pcm16", 1.0 / 32768.0}, Case{"b.flac", "pcm24", 1.0 / 8388608.0}, Case{"c.wav", "pcm24", 1.0 / 8388608.0},
                          Case{"d.wav", "float32", 0.0}}) {
        INFO(c.file << " " << c.samples);
        const RunReport report = writeChannels(channels, 44100, {{"path", dir.file(c.file)}, {"samples", c.samples}});
        REQUIRE(report.outcome.failures.empty());
        const SoundData read = readSound(dir.file(c.file));
        CHECK(read.rateHz == 44100);
        REQUIRE(read.channels == 3);
        REQUIRE(read.frames() == 30000);
        double worst = 0.0;
        for (std::int64_t f = 0; f < read.frames(); ++f) {
            for (int ch = 0; ch < 3; ++ch) worst = std::max(worst, std::abs(static_cast<double>(read.at(f, ch)) - channels[static_cast<std::size_t>(ch)][static_cast<std::size_t>(f)]));
        }
        CHECK(worst <= c.step / 2.0 + 1e-9);
        CHECK(partialFilesIn(dir).empty());
    }
}

TEST_CASE("io.sound_file_sink's Ogg Vorbis and Opus keep a tone's frequency and level", "[io][sound_file_sink]") {
    TempDir dir;
    const double rate = 48000.0;
    std::vector<std::vector<float>> tone(2, std::vector<float>(48000));
    for (std::size_t n = 0; n < 48000; ++n) {
        tone[0][n] = static_cast<float>(0.5 * std::sin(2.0 * std::numbers::pi * 1000.0 * n / rate));
        tone[1][n] = static_cast<float>(0.25 * std::sin(2.0 * std::numbers::pi * 3000.0 * n / rate));
    }
    for (const char* file : {"tone.ogg", "tone.opus"}) {
        INFO(file);
        const RunReport report = writeChannels(tone, rate, {{"path", dir.file(file)}, {"quality", 0.8}});
        REQUIRE(report.outcome.failures.empty());
        const SoundData read = readSound(dir.file(file));
        REQUIRE(read.channels == 2);
        CHECK(read.frames() == Approx(48000).margin(1000));  // codecs round the end to their frame
        std::vector<float> left, right;
        for (std::int64_t f = 4800; f + 4800 < read.frames(); ++f) {  // away from the codecs' start-up and fade
            left.push_back(read.at(f, 0));
            right.push_back(read.at(f, 1));
        }
        CHECK(tonePower(left, 1000.0, rate) == Approx(0.125).epsilon(0.05));
        CHECK(tonePower(right, 3000.0, rate) == Approx(0.03125).epsilon(0.05));
        CHECK(tonePower(left, 1000.0, rate) / meanPower(left) > 0.99);  // what was not the tone is coding noise
    }
}

TEST_CASE("io.sound_file_sink refuses settings it cannot honour, naming them", "[io][sound_file_sink]") {
    TempDir dir;
    const auto channels = noise(1, 100, 1);
    CHECK_THROWS_WITH(writeChannels(channels, 8000, {{"path", dir.file("out.mp3")}}),
                      Catch::Contains("node 'sink'") && Catch::Contains("container") && Catch::Contains("out.mp3"));
    CHECK_THROWS_WITH(writeChannels(channels, 8000, {{"path", dir.file("out.flac")}, {"samples", "float32"}}),
                      Catch::Contains("node 'sink'") && Catch::Contains("FLAC") && Catch::Contains("samples"));
    const RunReport opus = writeChannels(channels, 44100, {{"path", dir.file("out.opus")}});
    REQUIRE(opus.outcome.failures.size() == 1);
    CHECK_THAT(opus.outcome.failures[0], Catch::Contains("node 'sink'") && Catch::Contains("out.opus") && Catch::Contains("48000"));
    // A rate that is not a whole number of Hz was rounded into the file (it then plays at another speed).
    for (const std::string name : {"half.flac", "half.ogg", "half.wav"}) {
        INFO(name);
        const RunReport half = writeChannels(channels, 0.5, {{"path", dir.file(name)}});
        REQUIRE(half.outcome.failures.size() == 1);
        CHECK_THAT(half.outcome.failures[0], Catch::Contains("node 'sink'") && Catch::Contains("in0 is at 0.5 Hz") && Catch::Contains("a whole number of Hz"));
        CHECK_FALSE(std::filesystem::exists(dir.file(name)));
    }
}
