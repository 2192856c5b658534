#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include <unistd.h>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// Graph JSON: io.audio_file_source reading `input` with `channels` outputs into io.wav_file_sink.
std::string copyGraph(const std::string& input, const std::string& output, int channels, const std::string& format) {
    json edges = json::array();
    for (int c = 0; c < channels; ++c) {
        edges.push_back({{"from", "src.out" + std::to_string(c)}, {"to", "sink.in" + std::to_string(c)}});
    }
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "src"}, {"type", "io.audio_file_source"}, {"params", {{"path", input}, {"channels", channels}, {"block", 333}}}},
          {{"id", "sink"}, {"type", "io.wav_file_sink"},
           {"params", {{"path", output}, {"channels", channels}, {"format", format}}}}}},
        {"edges", edges},
    };
    return graph.dump();
}

/// Graph JSON: a two-output test.feed named `script` into a two-channel float32 io.wav_file_sink.
std::string feedGraph(const std::string& script, const std::string& output) {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", script}, {"outputs", 2}}}},
          {{"id", "sink"}, {"type", "io.wav_file_sink"}, {"params", {{"path", output}, {"channels", 2}, {"format", "float32"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "sink.in0"}}, {{"from", "feed.out1"}, {"to", "sink.in1"}}}},
    };
    return graph.dump();
}

/// `frames` frames of `channels` distinct, deterministic values in [-1, 1), full scale included.
std::vector<float> testSignal(std::int64_t frames, int channels) {
    std::vector<float> interleaved;
    for (std::int64_t i = 0; i < frames; ++i) {
        for (int c = 0; c < channels; ++c) {
            interleaved.push_back(static_cast<float>(std::sin(0.01 * static_cast<double>(i) * (c + 1) + c)) * 0.999f);
        }
    }
    interleaved[0] = -1.0f;
    return interleaved;
}

/// Samples [start, start + length) of a ramp: sample n is n / 1000.
SigSeg<float> ramp(std::int64_t start, std::int64_t length, const Timebase& timebase) {
    std::vector<float> samples;
    for (std::int64_t n = start; n < start + length; ++n) samples.push_back(static_cast<float>(n) / 1000.0f);
    return makeSignal(samples, start, timebase);
}

/// The whole of the file at `path`.
std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("wav_file_sink round-trips a file through io.audio_file_source, 1 and 3 channels", "[io][wav_file_sink]") {
    TempDir dir;
    for (int channels : {1, 3}) {
        INFO(channels << " channel(s)");
        const std::string input = dir.file("input.wav");
        const std::vector<float> original = testSignal(2000, channels);
        writeFloatWav(input, 22050, channels, original);

        {
            INFO("float32: exact");
            const std::string output = dir.file("copy-float.wav");
            RunOutcome outcome = runGraph(copyGraph(input, output, channels, "float32"));
            CHECK(outcome.completed);
            CHECK(outcome.failures.empty());
            const SoundData copy = readSound(output);
            CHECK(copy.rateHz == 22050);
            CHECK(copy.channels == channels);
            CHECK(copy.interleaved == original);
            CHECK(partialFilesIn(dir).empty());
        }
        {
            INFO("pcm16: within 1/32768");
            const std::string output = dir.file("copy-pcm.wav");
            RunOutcome outcome = runGraph(copyGraph(input, output, channels, "pcm16"));
            CHECK(outcome.completed);
            const SoundData copy = readSound(output);
            CHECK(copy.rateHz == 22050);
            CHECK(copy.channels == channels);
            REQUIRE(copy.interleaved.size() == original.size());
            float worst = 0;
            for (std::size_t i = 0; i < original.size(); ++i) worst = std::max(worst, std::fabs(copy.interleaved[i] - original[i]));
            CHECK(worst <= 1.0f / 32768.0f);
            CHECK(copy.interleaved[0] == -1.0f);
            CHECK(partialFilesIn(dir).empty());
        }
        {
            INFO("pcm16 in, pcm16 out: exact");
            std::vector<std::int16_t> codes;
            for (float v : original) codes.push_back(static_cast<std::int16_t>(std::lround(v * 32767.0f)));
            writePcm16Wav(input, 22050, channels, codes);
            const std::string output = dir.file("copy-pcm-pcm.wav");
            runGraph(copyGraph(input, output, channels, "pcm16"));
            CHECK(readSound(output).interleaved == readSound(input).interleaved);
        }
    }
}

TEST_CASE("wav_file_sink writes a float file the same bytes every time, with room to grow past 4 GiB as RF64", "[io][wav_file_sink]") {
    // libsndfile's PEAK chunk carried the time of writing, so equal runs gave unequal files; and a
    // WAV's 32-bit sizes wrapped past 4 GiB (readers saw a few percent of a long recording). Written
    // as RF64 that stays a plain WAV below 4 GiB, the header keeps room (a JUNK chunk) for the 64-bit sizes.
    TempDir dir;
    const std::string input = dir.file("input.wav");
    writeFloatWav(input, 22050, 2, testSignal(2000, 2));
    std::string previous;
    for (int run = 0; run < 2; ++run) {
        const std::string output = dir.file("copy" + std::to_string(run) + ".wav");
        REQUIRE(runGraph(copyGraph(input, output, 2, "float32")).completed);
        const std::string bytes = readText(output);
        CHECK(bytes.find("PEAK") == std::string::npos);
        CHECK(bytes.starts_with("RIFF"));
        CHECK(bytes.substr(12, 4) == "JUNK");
        if (run == 1) CHECK(bytes == previous);
        previous = bytes;
        CHECK(readSound(output).interleaved == testSignal(2000, 2));
    }
}

TEST_CASE("wav_file_sink aligns channels by sample index, writes missing samples as zeros and warns",
          "[io][wav_file_sink]") {
    const Timebase& timebase = Timebase::get(1000);
    // Channel 0 delivers [0, 200); channel 1 delivers [0, 50) and [80, 180): a gap and an early end.
    const std::vector<std::pair<int, Item>> pieces = {
        {0, Item::signal(ramp(0, 100, timebase))},  {1, Item::signal(ramp(0, 50, timebase))},
        {0, Item::signal(ramp(100, 100, timebase))}, {1, Item::signal(ramp(80, 100, timebase))},
    };
    std::vector<float> expected;
    for (std::int64_t n = 0; n < 200; ++n) {
        expected.push_back(static_cast<float>(n) / 1000.0f);
        expected.push_back(n < 50 || (n >= 80 && n < 180) ? static_cast<float>(n) / 1000.0f : 0.0f);
    }

    TempDir dir;
    const std::string output = dir.file("aligned.wav");
    // The same pieces in different interleavings of the two channels (each channel in index order)
    // and batchings must give the same file.
    const std::vector<std::vector<std::size_t>> orders = {{0, 1, 2, 3}, {1, 3, 0, 2}, {0, 2, 1, 3}, {1, 0, 3, 2}};
    for (const auto& order : orders) {
        for (bool oneBatch : {false, true}) {
            FeedScript script;
            for (std::size_t index : order) {
                if (!oneBatch || script.batches.empty()) script.batches.emplace_back();
                script.batches.back().push_back(pieces[index]);
            }
            feedScripts()["aligned"] = script;
            for (const auto& scheduler : schedulerMatrix()) {
                INFO("order " << order[0] << order[1] << order[2] << order[3] << ", one batch " << oneBatch << ", scheduler " << scheduler);
                RunReport report = runGraphReporting(feedGraph("aligned", output), scheduler);
                CHECK(report.outcome.completed);
                const SoundData written = readSound(output);
                CHECK(written.rateHz == 1000);
                CHECK(written.channels == 2);
                CHECK(written.interleaved == expected);
                const auto& warnings = report.nodes["sink"].warnings;
                REQUIRE(warnings.size() == 2);
                CHECK_THAT(warnings[0], Catch::Contains("in1") && Catch::Contains("[50, 80)"));
                CHECK_THAT(warnings[1], Catch::Contains("in1") && Catch::Contains("[180, 200)"));
                CHECK(partialFilesIn(dir).empty());
            }
        }
    }
    feedScripts().clear();
}

TEST_CASE("wav_file_sink starts the file at the earliest first sample over its inputs", "[io][wav_file_sink]") {
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    script.batches = {{{1, Item::signal(ramp(510, 20, timebase))}, {0, Item::signal(ramp(500, 30, timebase))}}};
    feedScripts()["late"] = script;
    TempDir dir;
    const std::string output = dir.file("late.wav");
    RunReport report = runGraphReporting(feedGraph("late", output));
    const SoundData written = readSound(output);
    REQUIRE(written.frames() == 30);
    CHECK(written.at(0, 0) == 0.5f);
    CHECK(written.at(9, 1) == 0.0f);
    CHECK(written.at(10, 1) == 0.51f);
    CHECK(written.at(29, 1) == 0.529f);
    REQUIRE(!report.nodes["sink"].warnings.empty());
    CHECK_THAT(report.nodes["sink"].warnings[0], Catch::Contains("[500, 510)"));
    feedScripts().clear();
}

TEST_CASE("wav_file_sink refuses a path it cannot write and writes nothing without samples", "[io][wav_file_sink]") {
    TempDir dir;
    const std::string unwritable = dir.file("no-such-folder/out.wav");
    feedScripts()["nothing"] = FeedScript{};
    try {
        runGraph(feedGraph("nothing", unwritable));
        FAIL("the engine started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains(unwritable));
    }

    const std::string output = dir.file("empty.wav");
    RunReport report = runGraphReporting(feedGraph("nothing", output));
    CHECK(report.outcome.completed);
    CHECK_FALSE(std::filesystem::exists(output));
    CHECK(partialFilesIn(dir).empty());
    REQUIRE(report.nodes["sink"].warnings.size() == 1);
    CHECK_THAT(report.nodes["sink"].warnings[0], Catch::Contains("no samples"));
    feedScripts().clear();
}

TEST_CASE("wav_file_sink refuses a rate a sound file cannot state, and writes no file", "[io][wav_file_sink]") {
    // 3e9 Hz was written as -1294967296 Hz and 1e10 Hz as 1410065408 Hz (an int's wrap), with exit 0;
    // 0.5 Hz was written as 1 Hz and 44100.5 Hz as 44101 Hz (the file plays at another speed), with a
    // warning only.
    for (const double rateHz : {3e9, 1e10, 0.25, 0.5, 44100.5}) {
        INFO(rateHz);
        const Timebase& timebase = Timebase::get(rateHz);
        FeedScript script;
        script.batches = {{{0, Item::signal(ramp(0, 10, timebase))}, {1, Item::signal(ramp(0, 10, timebase))}}};
        feedScripts()["fast"] = script;
        TempDir dir;
        const std::string output = dir.file("fast.wav");
        RunReport report = runGraphReporting(feedGraph("fast", output));
        REQUIRE(report.outcome.failures.size() == 1);
        CHECK_THAT(report.outcome.failures[0], Catch::Contains("node 'sink'") && Catch::Contains("in0 is at") &&
                                                   Catch::Contains("which a sound file cannot state (a whole number of Hz from 1 to 2147483647 Hz)") &&
                                                   Catch::Contains("resample.to_rate"));
        CHECK_FALSE(std::filesystem::exists(output));
        feedScripts().clear();
    }
}

TEST_CASE("wav_file_sink ignores samples an input repeats, with a warning", "[io][wav_file_sink]") {
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    script.batches = {{{0, Item::signal(ramp(0, 100, timebase))}, {0, Item::signal(ramp(50, 100, timebase))},
                       {1, Item::signal(ramp(0, 150, timebase))}}};
    feedScripts()["repeat"] = script;
    TempDir dir;
    const std::string output = dir.file("repeat.wav");
    RunReport report = runGraphReporting(feedGraph("repeat", output));
    const SoundData written = readSound(output);
    REQUIRE(written.frames() == 150);
    for (std::int64_t n = 0; n < 150; ++n) CHECK(written.at(n, 0) == static_cast<float>(n) / 1000.0f);
    REQUIRE(report.nodes["sink"].warnings.size() == 1);
    CHECK_THAT(report.nodes["sink"].warnings[0], Catch::Contains("arrived again"));
    feedScripts().clear();
}

TEST_CASE("wav_file_sink counts NaN, infinite and out-of-range samples and warns once with the counts", "[io][wav_file_sink]") {
    // They came out as 0 and as full scale, with no warning and exit 0.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> samples = {nan, inf, -inf, 3e38f, 1.5f, -2.0f, 0.5f, 1.0f, -1.0f, nan};
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    // Two batches, so the counts add up over several writes.
    script.batches = {{{0, Item::signal(makeSignal(std::vector<float>(samples.begin(), samples.begin() + 5), 0, timebase))}},
                      {{0, Item::signal(makeSignal(std::vector<float>(samples.begin() + 5, samples.end()), 5, timebase))}}};
    feedScripts()["odd"] = script;
    TempDir dir;
    for (const std::string format : {"pcm16", "float32"}) {
        INFO(format);
        const std::string output = dir.file(format + ".wav");
        const json graph = {
            {"format", "isochron-graph/1"},
            {"nodes",
             {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "odd"}, {"outputs", 1}}}},
              {{"id", "sink"}, {"type", "io.wav_file_sink"}, {"params", {{"path", output}, {"channels", 1}, {"format", format}}}}}},
            {"edges", {{{"from", "feed.out0"}, {"to", "sink.in0"}}}},
        };
        RunReport report = runGraphReporting(graph.dump());
        REQUIRE(report.outcome.failures.empty());
        const SoundData written = readSound(output);
        REQUIRE(written.frames() == static_cast<std::int64_t>(samples.size()));
        const auto& warnings = report.nodes["sink"].warnings;
        REQUIRE(warnings.size() == 1);
        if (format == "pcm16") {
            // libsndfile reads code c as c / 32768: NaN is 0, anything beyond full scale its limit.
            const std::vector<float> expected = {0.0f, 32767 / 32768.0f, -1.0f, 32767 / 32768.0f, 32767 / 32768.0f, -1.0f,
                                                 0.5f, 32767 / 32768.0f, -1.0f, 0.0f};
            for (std::size_t i = 0; i < samples.size(); ++i) CHECK(written.at(static_cast<std::int64_t>(i), 0) == expected[i]);
            CHECK_THAT(warnings[0], Catch::Contains(output) && Catch::Contains("2 samples were NaN (written as 0)") &&
                                        Catch::Contains("5 were beyond full scale") && Catch::Contains("2 of them infinite"));
        } else {
            for (std::size_t i = 0; i < samples.size(); ++i) {
                const float read = written.at(static_cast<std::int64_t>(i), 0);
                CHECK((std::isnan(samples[i]) ? std::isnan(read) : read == samples[i]));
            }
            CHECK_THAT(warnings[0], Catch::Contains("2 samples were NaN, 2 were infinite (stored as they are"));
        }
    }
    feedScripts().clear();
}

TEST_CASE("wav_file_sink gives no warning for 16-bit samples within full scale, +-1 included", "[io][wav_file_sink]") {
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    script.batches = {{{0, Item::signal(makeSignal({-1.0f, 1.0f, 0.25f, 0.99999f}, 0, timebase))}}};
    feedScripts()["edges"] = script;
    TempDir dir;
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "edges"}, {"outputs", 1}}}},
          {{"id", "sink"}, {"type", "io.wav_file_sink"}, {"params", {{"path", dir.file("edges.wav")}, {"channels", 1}, {"format", "pcm16"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "sink.in0"}}}},
    };
    RunReport report = runGraphReporting(graph.dump());
    REQUIRE(report.outcome.failures.empty());
    CHECK(readSound(dir.file("edges.wav")).frames() == 4);
    CHECK(report.nodes["sink"].warnings.empty());
    feedScripts().clear();
}

TEST_CASE("sound file sinks refuse at validation (--check) a generator feeding them at a rate a file cannot state",
          "[io][wav_file_sink][sound_file_sink]") {
    // --check said "valid"; only the run refused the rate, at the first segment.
    // Graph JSON: a generator at `rateHz`, through `middle` (a node type, or nothing), into sink type `sink`.
    auto graph = [](const std::string& sink, double rateHz, const std::string& middle) {
        json nodes = {{{"id", "gen"}, {"type", "generators.signal_generator"}, {"params", {{"rate", rateHz}, {"duration", 0.001}}}},
                      {{"id", "out"}, {"type", sink}, {"params", {{"path", "never-written.wav"}}}}};
        json edges = {{{"from", "gen.out"}, {"to", "out.in0"}}};
        if (!middle.empty()) {
            nodes.push_back({{"id", "mid"}, {"type", middle}});
            edges = {{{"from", "gen.out"}, {"to", "mid.in"}}, {{"from", "mid.out"}, {"to", "out.in0"}}};
        }
        return json{{"format", "isochron-graph/1"}, {"nodes", nodes}, {"edges", edges}}.dump();
    };
    auto checked = [](const std::string& graphJson) {
        try {
            validateGraph(parseGraph(graphJson), testRegistry());
        } catch (const GraphException& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    for (const std::string sink : {"io.wav_file_sink", "io.sound_file_sink"}) {
        INFO(sink);
        CHECK_THAT(checked(graph(sink, 3e9, "")), Catch::Contains("node 'out'") && Catch::Contains("node 'gen' feeds it at 3000000000 Hz") &&
                                                      Catch::Contains("2147483647 Hz"));
        CHECK_THAT(checked(graph(sink, 1e300, "")), Catch::Contains("at 1e+300 Hz"));
        // Not a whole number of Hz: was written rounded (0.5 Hz as 1 Hz), with a warning only.
        CHECK_THAT(checked(graph(sink, 0.5, "")), Catch::Contains("node 'out'") && Catch::Contains("node 'gen' feeds it at 0.5 Hz (its parameter 'rate')") &&
                                                      Catch::Contains("a whole number of Hz"));
        CHECK_THAT(checked(graph(sink, 44100.5, "")), Catch::Contains("at 44100.5 Hz"));
        CHECK(checked(graph(sink, 2147483647.0, "")).empty());
        CHECK(checked(graph(sink, 48000, "")).empty());
        // A resampler in between sets the rate the sink gets: not refused.
        CHECK(checked(graph(sink, 3e9, "resample.to_rate")).empty());
    }
}

TEST_CASE("wav_file_sink: a recording cut short by a failure never replaces an existing file, and takes the name where none was",
          "[io][wav_file_sink]") {
    // The partial recording was renamed over the complete file that was there (data loss).
    // 100 frames at 1000 Hz, then a piece at 2000 Hz that fails the sink (a file has one rate).
    FeedScript script;
    script.batches = {{{0, Item::signal(ramp(0, 100, Timebase::get(1000)))}, {1, Item::signal(ramp(0, 100, Timebase::get(1000)))}},
                      {{0, Item::signal(ramp(100, 50, Timebase::get(2000)))}}};
    feedScripts()["cut"] = script;
    TempDir dir;
    const std::string existing = dir.file("keep.wav");
    const std::vector<float> earlier = testSignal(30, 2);
    writeFloatWav(existing, 1000, 2, earlier);
    {
        INFO("an existing file stays whole; the recording stays under its partial name");
        RunReport report = runGraphReporting(feedGraph("cut", existing));
        REQUIRE(report.outcome.failures.size() == 1);
        CHECK(readSound(existing).interleaved == earlier);
        const std::vector<std::string> partials = partialFilesIn(dir);
        REQUIRE(partials.size() == 1);
        CHECK(partials[0] == "keep.wav." + std::to_string(::getpid()) + ".partial");
        CHECK(readSound(dir.file(partials[0])).frames() == 100);
        const auto& warnings = report.nodes["sink"].warnings;
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains("cut short") && Catch::Contains("did not replace '" + existing + "'") &&
                                    Catch::Contains("kept as '" + dir.file(partials[0]) + "'"));
        std::filesystem::remove(dir.file(partials[0]));
    }
    {
        INFO("where no file was, the recording takes the name, with a warning");
        const std::string fresh = dir.file("fresh.wav");
        RunReport report = runGraphReporting(feedGraph("cut", fresh));
        REQUIRE(report.outcome.failures.size() == 1);
        CHECK(readSound(fresh).frames() == 100);
        CHECK(partialFilesIn(dir).empty());
        const auto& warnings = report.nodes["sink"].warnings;
        REQUIRE(warnings.size() == 1);
        CHECK_THAT(warnings[0], Catch::Contains("cut short") && Catch::Contains("kept as '" + fresh + "'"));
    }
    feedScripts().clear();
}

TEST_CASE("wav_file_sink: a recording cut short by a failure upstream never replaces an existing file", "[io][wav_file_sink]") {
    // The failed node ended the sink's input, so the sink finished "complete" and replaced the file
    // that was there with the shortened recording.
    FeedScript script;
    for (std::int64_t start = 0; start < 300; start += 100) script.batches.push_back({{0, Item::signal(ramp(start, 100, Timebase::get(1000)))}});
    feedScripts()["upstream"] = script;
    TempDir dir;
    const std::string existing = dir.file("keep.wav");
    const std::vector<float> earlier = testSignal(30, 1);
    writeFloatWav(existing, 1000, 1, earlier);
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "upstream"}, {"outputs", 1}}}},
          {{"id", "broken"}, {"type", "test.fail_after"}, {"params", {{"n", 2}}}},
          {{"id", "sink"}, {"type", "io.wav_file_sink"}, {"params", {{"path", existing}, {"channels", 1}, {"format", "float32"}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "broken.in"}}, {{"from", "broken.out"}, {"to", "sink.in0"}}}},
    };
    RunReport report = runGraphReporting(graph.dump());
    feedScripts().clear();
    REQUIRE(report.outcome.failures.size() == 1);
    CHECK_THAT(report.outcome.failures[0], Catch::Contains("node 'broken'"));
    CHECK(readSound(existing).interleaved == earlier);
    const std::vector<std::string> partials = partialFilesIn(dir);
    REQUIRE(partials.size() == 1);
    CHECK(readSound(dir.file(partials[0])).frames() == 100);
    const auto& warnings = report.nodes["sink"].warnings;
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("cut short") && Catch::Contains("did not replace '" + existing + "'") &&
                                Catch::Contains("kept as '" + dir.file(partials[0]) + "'"));
}

TEST_CASE("wav_file_sink grows its file under a partial name of its own and leaves other writers' partial files alone",
          "[io][wav_file_sink]") {
    // Two runs writing one path shared 'path.partial': the first to finish renamed the other's recording away.
    FeedScript script;
    script.batches = {{{0, Item::signal(ramp(0, 40, Timebase::get(1000)))}, {1, Item::signal(ramp(0, 40, Timebase::get(1000)))}}};
    feedScripts()["shared"] = script;
    TempDir dir;
    const std::string output = dir.file("shared.wav");
    const std::string otherRun = output + ".partial", otherSink = output + "." + std::to_string(::getpid()) + ".partial";
    std::ofstream(otherRun) << "another run's recording";
    std::ofstream(otherSink) << "another sink's recording in this process";
    RunReport report = runGraphReporting(feedGraph("shared", output));
    CHECK(report.outcome.completed);
    CHECK(readSound(output).frames() == 40);
    CHECK(readText(otherRun) == "another run's recording");
    CHECK(readText(otherSink) == "another sink's recording in this process");
    CHECK(partialFilesIn(dir).size() == 2);
    feedScripts().clear();
}

TEST_CASE("wav_file_sink writes any file name its folder allows, up to the longest", "[io][wav_file_sink]") {
    // A valid name of 248 to 255 bytes was refused: 'name.wav.partial' was too long.
    FeedScript script;
    script.batches = {{{0, Item::signal(ramp(0, 40, Timebase::get(1000)))}, {1, Item::signal(ramp(0, 40, Timebase::get(1000)))}}};
    feedScripts()["long"] = script;
    TempDir dir;
    const long longest = ::pathconf(dir.path().c_str(), _PC_NAME_MAX);
    REQUIRE(longest > 20);
    // ASCII, and multi-byte UTF-8 ("é" is 2 bytes) so that a cut could land inside a character.
    for (const std::string& unit : {std::string("c"), std::string("\xc3\xa9")}) {
        for (long length : {longest - 4 - 7, longest - 4}) {
            std::string name;
            while (static_cast<long>(name.size()) + static_cast<long>(unit.size()) <= length - 4) name += unit;
            name += ".wav";
            INFO(name.size() << " bytes");
            const std::string output = dir.file(name);
            RunReport report = runGraphReporting(feedGraph("long", output));
            CHECK(report.outcome.failures.empty());
            CHECK(readSound(output).frames() == 40);
            CHECK(partialFilesIn(dir).empty());
            std::filesystem::remove(output);
        }
    }
    feedScripts().clear();
}
