// io.archive_sink's "downsample" representation through the real engine and a real SQLite file,
// checked against the signal's own definition (no stored results): a tone below the stored rate's
// Nyquist frequency comes back with its amplitude and phase at stored sample m = input sample
// m x factor (so frequency and timebase are kept), a tone above it is removed, a click stays within
// one stored sample of its time, a dropout stays a gap (each stretch resampled on its own), and the
// stream states both rates. io.archive_source replays what is stored, on the stored timebase.
// Over factors 2, 3, 4, random segment lengths and two schedulers.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/archive/archive_store.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

constexpr double kInputRate = 48000;
constexpr std::int64_t kLength = 96000;  // 2 s
/// Every channel misses [kGapStart, kGapEnd) (a capture dropout); kGapEnd is no multiple of 2, 3 or 4.
constexpr std::int64_t kGapStart = 30000;
constexpr std::int64_t kGapEnd = 30497;
constexpr double kToneHz = 1000;
constexpr double kToneAmplitude = 0.5;
constexpr double kTonePhase = 0.3;
constexpr double kHighAmplitude = 0.3;
/// Clicks on channel 1: one at a multiple of every factor, one after the gap at none.
constexpr std::int64_t kClicks[] = {12000, 60001};

const Timebase& inputTimebase() { return Timebase::get(kInputRate, 123456789, Clock::named("device:downsample-test")); }

double tone(double inputIndex) { return kToneAmplitude * std::sin(2 * std::numbers::pi * kToneHz * inputIndex / kInputRate + kTonePhase); }

/// Channel 0: the tone plus one at 1.5 x the stored Nyquist frequency; channel 1: silence and clicks.
std::vector<std::vector<float>> inputChannels(std::int64_t factor) {
    const double highHz = 1.5 * kInputRate / static_cast<double>(factor) / 2;
    std::vector<std::vector<float>> channels(2, std::vector<float>(kLength, 0.0f));
    for (std::int64_t n = 0; n < kLength; ++n) {
        const double high = kHighAmplitude * std::sin(2 * std::numbers::pi * highHz * static_cast<double>(n) / kInputRate);
        channels[0][static_cast<std::size_t>(n)] = static_cast<float>(tone(static_cast<double>(n)) + high);
    }
    for (std::int64_t click : kClicks) channels[1][static_cast<std::size_t>(click)] = 0.8f;
    return channels;
}

/// Both channels outside the gap, each cut into segments of random lengths.
FeedScript recordingScript(const std::vector<std::vector<float>>& channels, std::mt19937& random) {
    std::uniform_int_distribution<std::int64_t> pieceLength(1, 3000);
    FeedScript script;
    script.outputs = 2;
    for (auto [from, to] : {std::pair{std::int64_t{0}, kGapStart}, std::pair{kGapEnd, kLength}}) {
        std::int64_t next[2] = {from, from};
        while (next[0] < to || next[1] < to) {
            std::vector<std::pair<int, Item>> batch;
            for (int c = 0; c < 2; ++c) {
                if (next[c] >= to) continue;
                const std::int64_t length = std::min(pieceLength(random), to - next[c]);
                const std::vector<float> samples(channels[c].begin() + next[c], channels[c].begin() + next[c] + length);
                batch.push_back({c, Item::signal(makeSignal(samples, next[c], inputTimebase()))});
                next[c] += length;
            }
            script.batches.push_back(std::move(batch));
        }
    }
    return script;
}

std::string recordGraph(const std::string& path, std::int64_t factor) {
    const json graph = {
        {"format", "isochron-graph/1"},
        {"nodes",
         {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "recording"}, {"outputs", 2}}}},
          {{"id", "rec"},
           {"type", "io.archive_sink"},
           {"params", {{"path", path}, {"stream", "array"}, {"channels", 2}, {"representation", "downsample"}, {"downsample_factor", factor}}}}}},
        {"edges", {{{"from", "feed.out0"}, {"to", "rec.in0"}}, {{"from", "feed.out1"}, {"to", "rec.in1"}}}},
    };
    return graph.dump();
}

/// Stored samples by stored index over [from, to) of one channel, from its stored pieces (gaps as NaN).
std::vector<float> storedSamples(ArchiveStore& store, int channel, std::int64_t from, std::int64_t to) {
    std::vector<float> samples;
    for (const ArchivedPiece& piece : store.get("array", channel, from, to)) {
        if (piece.isGap()) {
            samples.insert(samples.end(), static_cast<std::size_t>(piece.length), std::numeric_limits<float>::quiet_NaN());
        } else {
            const std::span<const float> read = piece.samples.materialize();
            samples.insert(samples.end(), read.begin(), read.end());
        }
    }
    return samples;
}

}  // namespace

TEST_CASE("io.archive_sink's downsample representation keeps what lies below the stored Nyquist frequency, in time", "[io][archive]") {
    std::mt19937 random(1313);
    for (const std::int64_t factor : {std::int64_t{2}, std::int64_t{3}, std::int64_t{4}}) {
        for (const std::string scheduler : {"df", "superbox-mc:workers=2"}) {
            INFO("factor " << factor << ", " << scheduler);
            const double storedRate = kInputRate / static_cast<double>(factor);
            const std::vector<std::vector<float>> channels = inputChannels(factor);
            TempDir dir;
            const std::string path = dir.file("downsampled.sqlite");
            feedScripts()["recording"] = recordingScript(channels, random);
            const RunOutcome recorded = runGraph(recordGraph(path, factor), scheduler);
            feedScripts().clear();
            REQUIRE(recorded.failures.empty());

            ArchiveStore store(path, ArchiveAccess::Read);
            const ArchivedStreamInfo info = *store.stream("array");
            CHECK(info.representation == "downsample");
            CHECK(info.rateHz == storedRate);
            CHECK(info.originalRateHz == kInputRate);
            CHECK(info.zeroTimeNs == inputTimebase().zeroTimeNs());
            CHECK(info.clock == inputTimebase().clock().name());

            // Each stretch starts at its first input sample on the stored grid and holds round(its input / factor)
            // samples (libsoxr's count once flushed); the dropout stays a gap.
            const std::int64_t secondStart = (kGapEnd + factor - 1) / factor;
            const auto rounded = [&](std::int64_t inputSamples) { return (2 * inputSamples + factor) / (2 * factor); };
            const std::vector<std::pair<std::int64_t, std::int64_t>> expected{
                {0, rounded(kGapStart)}, {secondStart, secondStart + rounded(kLength - secondStart * factor)}};
            for (int c = 0; c < 2; ++c) CHECK(store.coverage("array", c) == expected);

            // The tone at stored sample m is the input's tone at input sample m x factor; the high tone is gone.
            // Away from each stretch's edges (the filter's start and end) by 0.02 s.
            const auto margin = static_cast<std::int64_t>(0.02 * storedRate);
            double residualEnergy = 0;
            std::int64_t counted = 0;
            for (const auto& [from, to] : expected) {
                const std::vector<float> stored = storedSamples(store, 0, from + margin, to - margin);
                for (std::size_t i = 0; i < stored.size(); ++i) {
                    const double m = static_cast<double>(from + margin + static_cast<std::int64_t>(i));
                    const double error = stored[i] - tone(m * static_cast<double>(factor));
                    residualEnergy += error * error;
                    ++counted;
                }
            }
            const double residualRms = std::sqrt(residualEnergy / static_cast<double>(counted));
            INFO("residual rms " << residualRms << " beside the tone's " << kToneAmplitude / std::sqrt(2.0) << " and the removed tone's "
                                 << kHighAmplitude / std::sqrt(2.0));
            CHECK(residualRms < 1e-3);

            // Each click peaks within one stored sample of its time (input index / factor).
            for (const std::int64_t click : kClicks) {
                const double at = static_cast<double>(click) / static_cast<double>(factor);
                const auto from = static_cast<std::int64_t>(at) - margin;
                const std::vector<float> stored = storedSamples(store, 1, from, from + 2 * margin);
                const auto peak = std::max_element(stored.begin(), stored.end(), [](float a, float b) { return std::abs(a) < std::abs(b); });
                const double peakIndex = static_cast<double>(from + (peak - stored.begin()));
                INFO("click at input " << click << ": stored peak at " << peakIndex << " for " << at);
                CHECK(std::abs(peakIndex - at) < (click % factor == 0 ? 0.5 : 1.0));
                CHECK(*peak > 0.1f);
            }

            // io.archive_source replays the stored samples on the stored timebase, the gap a jump.
            const RunOutcome replayed =
                runGraph(sourceToCollect("io.archive_source", {{"path", path}, {"stream", "array"}, {"channels", 2}, {"block", 512}}, 2, "replay"));
            REQUIRE(replayed.failures.empty());
            for (int c = 0; c < 2; ++c) {
                std::vector<float> replay;
                std::vector<std::pair<std::int64_t, std::int64_t>> stretches;
                for (const Item& item : collections()["replay"].items[c]) {
                    const SegmentHandle& segment = item.segment();
                    REQUIRE(segment.timebase() == &Timebase::get(storedRate, inputTimebase().zeroTimeNs(), inputTimebase().clock()));
                    if (!stretches.empty() && stretches.back().second == segment.startIndex()) stretches.back().second = segment.endIndex();
                    else stretches.emplace_back(segment.startIndex(), segment.endIndex());
                    const std::vector<float> samples = samplesOf(item);
                    replay.insert(replay.end(), samples.begin(), samples.end());
                }
                CHECK(stretches == expected);
                std::vector<float> stored = storedSamples(store, c, expected[0].first, expected[0].second);
                const std::vector<float> second = storedSamples(store, c, expected[1].first, expected[1].second);
                stored.insert(stored.end(), second.begin(), second.end());
                CHECK(replay == stored);
            }
            collections().clear();
        }
    }
}

TEST_CASE("io.archive_sink refuses a downsample_factor that does not fit its representation, naming node and parameter", "[io][archive]") {
    TempDir dir;
    for (const auto& [representation, factor] : {std::pair{std::string("downsample"), json(1)}, std::pair{std::string("downsample"), json(0)},
                                                 std::pair{std::string("downsample"), json(2.5)}, std::pair{std::string("f32"), json(3)}}) {
        INFO(representation << ", factor " << factor.dump());
        json graph = json::parse(recordGraph(dir.file("refused.sqlite"), 2));
        graph["nodes"][1]["params"]["representation"] = representation;
        graph["nodes"][1]["params"]["downsample_factor"] = factor;
        try {
            runGraph(graph.dump());
            FAIL("the graph ran");
        } catch (const std::exception& e) {
            const std::string message = e.what();
            CHECK(message.find("node 'rec'") != std::string::npos);
            CHECK(message.find("downsample_factor") != std::string::npos);
        }
    }
    CHECK_FALSE(std::filesystem::exists(dir.file("refused.sqlite")));
}
