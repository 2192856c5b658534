// spectral.stft and spectral.istft against scipy.signal (committed reference values) and the
// perfect-reconstruction property over windows, sizes, hops, random splits and schedulers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "nodes/spectral/window_functions.h"

#include "tests/nodes/spectral/spectral_reference.h"
#include "tests/nodes/spectral/spectral_test_support.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// `samples` as signal items of random lengths from `start` (each item itself of several pieces).
std::vector<Item> randomItems(const std::vector<float>& samples, std::int64_t start, const Timebase& timebase, std::mt19937& random) {
    std::vector<Item> items;
    std::size_t done = 0;
    while (done < samples.size()) {
        std::uniform_int_distribution<std::size_t> length(1, 300);
        const std::size_t take = std::min(length(random), samples.size() - done);
        std::vector<float> part(samples.begin() + static_cast<std::ptrdiff_t>(done), samples.begin() + static_cast<std::ptrdiff_t>(done + take));
        items.push_back(Item::signal(randomlySplit(part, start + static_cast<std::int64_t>(done), timebase, random)));
        done += take;
    }
    return items;
}

/// Runs feed -> stft -> istft -> collect over `items`; returns what istft emitted.
std::vector<Item> roundTrip(const std::vector<Item>& items, std::int64_t size, std::int64_t hop, const std::string& window,
                            const std::string& scheduler = "df") {
    const nlohmann::json settings = {{"size", size}, {"hop", hop}, {"window", window}};
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", nlohmann::json::array({{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "stft"}}}},
                                         {{"id", "stft"}, {"type", "spectral.stft"}, {"params", settings}},
                                         {{"id", "istft"}, {"type", "spectral.istft"}, {"params", settings}},
                                         {{"id", "probe"}, {"type", "test.probe"}, {"params", {{"name", "stft-frames"}, {"keep", false}}}},
                                         {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "stft"}}}}})},
        {"edges", nlohmann::json::array({{{"from", "feed.out0"}, {"to", "stft.in"}},
                                         {{"from", "stft.spectrum"}, {"to", "istft.spectrum"}},
                                         {{"from", "stft.spectrum"}, {"to", "probe.in"}},
                                         {{"from", "istft.out"}, {"to", "sink.in0"}}})}};
    FeedScript script;
    for (const Item& item : items) script.batches.push_back({{0, item}});
    feedScripts()["stft"] = script;
    registerStreamProbes();
    const RunOutcome outcome = runGraph(graph.dump(), scheduler);
    REQUIRE(outcome.failures.empty());
    CHECK(probes()["stft-frames"].brokenPromises == 0);
    std::vector<Item> out = collections()["stft"].items[0];
    CHECK(collections()["stft"].finished);
    feedScripts().clear();
    collections().clear();
    return out;
}

/// The output items' samples, checking they are contiguous from `start`.
std::vector<float> contiguousSamples(const std::vector<Item>& items, std::int64_t start) {
    std::vector<float> samples;
    std::int64_t next = start;
    for (const Item& item : items) {
        REQUIRE(item.range().start == next);
        next = item.range().end();
        for (float s : samplesOf(item)) samples.push_back(s);
    }
    return samples;
}

double largestDifference(const std::vector<float>& got, const std::vector<float>& want) {
    double worst = 0.0;
    for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(got[i]) - want[i]));
    return worst;
}

}  // namespace

TEST_CASE("spectral.stft matches scipy.signal.stft with zero boundaries (hop N/2, hann)", "[spectral][stft]") {
    const std::vector<float> signal = referenceSignal();
    const auto reference = referenceStftFrames();
    const nlohmann::json& settings = spectralReference()["stft"];
    const std::int64_t size = settings["size"];
    const std::int64_t hop = settings["hop"];
    const Timebase& timebase = Timebase::get(spectralReference()["rate"].get<double>());
    std::mt19937 random(41);
    NodeRun run = runNode("spectral.stft", {{"size", size}, {"hop", hop}, {"window", "hann"}}, "signal<f32>", "in", {"spectrum"},
                          randomItems(signal, 0, timebase, random));
    REQUIRE(run.outcome.failures.empty());
    REQUIRE(run.outputs[0].size() == reference.size());
    const auto length = static_cast<std::int64_t>(signal.size());
    for (std::size_t f = 0; f < reference.size(); ++f) {
        INFO("frame " << f);
        const Item& frame = run.outputs[0][f];
        const std::int64_t start = settings["first_start"].get<std::int64_t>() + static_cast<std::int64_t>(f) * hop;
        CHECK(frame.range().start == start);
        CHECK(frame.range().length == std::min(size, length - start));  // padded frames are cut at the end
        CHECK(frame.range().timebase == &timebase);
        const auto bins = binsOf(frame);
        REQUIRE(bins.size() == reference[f].size());
        for (std::size_t k = 0; k < bins.size(); ++k) CHECK(std::abs(std::complex<double>(bins[k]) - reference[f][k]) < 2e-5);
    }
}

TEST_CASE("ISTFT(STFT(x)) gives x back to 1e-5 for every standard window, size and hop", "[spectral][stft][istft]") {
    const Timebase& timebase = Timebase::get(16000);
    std::mt19937 random(2024);
    struct Setup {
        std::int64_t size, hop;
    };
    const std::vector<Setup> setups = {{64, 32}, {64, 16}, {100, 25}, {128, 96}, {256, 64}, {512, 128}, {33, 11}};
    for (const std::string& window : windowShapeNames()) {
        for (const Setup& setup : setups) {
            INFO(window << " window, size " << setup.size << ", hop " << setup.hop);
            const std::int64_t start = std::uniform_int_distribution<std::int64_t>(-500, 500)(random);
            const std::vector<float> signal = randomSamples(1500 + random() % 700, random);
            const std::vector<float> rebuilt = contiguousSamples(roundTrip(randomItems(signal, start, timebase, random), setup.size, setup.hop, window), start);
            REQUIRE(rebuilt.size() == signal.size());
            CHECK(largestDifference(rebuilt, signal) < 1e-5);
        }
    }
}

TEST_CASE("without overlap (hop = size) the last, partial frame is sent too and ISTFT(STFT(x)) gives x back", "[spectral][stft][istft]") {
    const Timebase& timebase = Timebase::get(16000);
    std::mt19937 random(77);
    for (const std::string window : {"none", "hamming"}) {
        for (const std::int64_t size : {64, 512}) {
            INFO(window << " window, size = hop = " << size);
            const std::vector<float> signal = randomSamples(1713, random);  // not a whole number of frames
            REQUIRE(signal.size() % static_cast<std::size_t>(size) != 0);
            const std::vector<float> rebuilt = contiguousSamples(roundTrip(randomItems(signal, 0, timebase, random), size, size, window), 0);
            REQUIRE(rebuilt.size() == signal.size());
            CHECK(largestDifference(rebuilt, signal) < 1e-5);
        }
    }
}

TEST_CASE("ISTFT(STFT(x)) is the same under every scheduler", "[spectral][stft][istft]") {
    const Timebase& timebase = Timebase::get(8000);
    std::mt19937 random(9);
    const std::vector<float> signal = randomSamples(3000, random);
    const std::vector<Item> items = randomItems(signal, 0, timebase, random);
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const std::vector<float> rebuilt = contiguousSamples(roundTrip(items, 256, 64, "hann", scheduler), 0);
        REQUIRE(rebuilt.size() == signal.size());
        CHECK(largestDifference(rebuilt, signal) < 1e-5);
    }
}

TEST_CASE("A gap in the input ends one STFT stream and starts another; both come back whole", "[spectral][stft][istft]") {
    const Timebase& timebase = Timebase::get(8000);
    std::mt19937 random(77);
    const std::vector<float> first = randomSamples(700, random);
    const std::vector<float> second = randomSamples(900, random);
    std::vector<Item> items = randomItems(first, 0, timebase, random);
    for (Item& item : randomItems(second, 1000, timebase, random)) items.push_back(std::move(item));  // samples 700 .. 999 lost
    const std::vector<Item> out = roundTrip(items, 128, 32, "hamming");
    std::vector<float> before, after;
    for (const Item& item : out) {
        REQUIRE((item.range().end() <= 700 || item.range().start >= 1000));
        for (float s : samplesOf(item)) (item.range().start < 700 ? before : after).push_back(s);
    }
    REQUIRE(before.size() == first.size());
    REQUIRE(after.size() == second.size());
    CHECK(largestDifference(before, first) < 1e-5);
    CHECK(largestDifference(after, second) < 1e-5);
}

TEST_CASE("spectral.istft of modified spectra matches scipy.signal.istft", "[spectral][istft]") {
    const auto reference = referenceStftFrames();
    const nlohmann::json& settings = spectralReference()["stft"];
    const std::int64_t size = settings["size"];
    const std::int64_t hop = settings["hop"];
    const std::size_t cut = spectralReference()["istft_lowpass"]["cut_bin"];
    const auto want = spectralReference()["istft_lowpass"]["signal"].get<std::vector<float>>();
    const Timebase& timebase = Timebase::get(spectralReference()["rate"].get<double>());
    const auto length = static_cast<std::int64_t>(want.size());
    std::vector<Item> frames;
    for (std::size_t f = 0; f < reference.size(); ++f) {
        std::vector<std::complex<float>> bins(reference[f].size());
        for (std::size_t k = 0; k < cut; ++k) bins[k] = std::complex<float>(reference[f][k]);
        const std::int64_t start = settings["first_start"].get<std::int64_t>() + static_cast<std::int64_t>(f) * hop;
        frames.push_back(Item::frame(SigSeg<std::complex<float>>::copyOf(bins, 0, nullptr),
                                     SampleRange{&timebase, start, std::min(size, length - start)}));
    }
    NodeRun run = runNode("spectral.istft", {{"size", size}, {"hop", hop}, {"window", "hann"}}, "frame<c32>", "spectrum", {"out"}, frames);
    REQUIRE(run.outcome.failures.empty());
    const std::vector<float> got = contiguousSamples(run.outputs[0], 0);
    REQUIRE(got.size() == want.size());
    CHECK(largestDifference(got, want) < 1e-5);
}

TEST_CASE("spectral.istft refuses spectra of the wrong size and windows that cannot be inverted", "[spectral][istft]") {
    const Timebase& timebase = Timebase::get(8000);
    std::vector<std::complex<float>> bins(17);
    NodeRun wrongSize = runNode("spectral.istft", {{"size", 64}, {"hop", 32}}, "frame<c32>", "spectrum", {"out"},
                                {Item::frame(SigSeg<std::complex<float>>::copyOf(bins, 0, nullptr), SampleRange{&timebase, 0, 64})});
    REQUIRE(wrongSize.outcome.failures.size() == 1);
    CHECK_THAT(wrongSize.outcome.failures[0], Catch::Contains("node 'op'") && Catch::Contains("17 bins") && Catch::Contains("needs 33"));

    CHECK_THROWS_WITH(runNode("spectral.istft", {{"size", 64}, {"hop", 64}, {"window", "hann"}}, "frame<c32>", "spectrum", {"out"}, {}),
                      Catch::Contains("node 'op'") && Catch::Contains("hann") && Catch::Contains("hop 64"));
    CHECK_THROWS_WITH(runNode("spectral.stft", {{"size", 64}, {"hop", 65}}, "signal<f32>", "in", {"spectrum"}, {}),
                      Catch::Contains("node 'op'") && Catch::Contains("hop 65") && Catch::Contains("size 64"));
}

TEST_CASE("spectral.stft without edge padding emits only frames inside the signal", "[spectral][stft]") {
    const Timebase& timebase = Timebase::get(8000);
    std::mt19937 random(5);
    const std::vector<float> signal = randomSamples(1000, random);
    NodeRun run = runNode("spectral.stft", {{"size", 128}, {"hop", 64}, {"pad_edges", false}}, "signal<f32>", "in", {"spectrum"},
                          randomItems(signal, 0, timebase, random));
    REQUIRE(run.outcome.failures.empty());
    REQUIRE(run.outputs[0].size() == 14);  // starts 0, 64, ..., 832: the last that fits in 1000 samples
    for (std::size_t f = 0; f < run.outputs[0].size(); ++f) {
        const Item& frame = run.outputs[0][f];
        CHECK(frame.range().start == static_cast<std::int64_t>(f) * 64);
        CHECK(frame.range().length == 128);
        std::vector<double> x(128);
        const std::vector<double> w = referenceWindow("hann", 128);
        for (std::size_t n = 0; n < 128; ++n) x[n] = signal[f * 64 + n] * w[n];
        const auto want = referenceDft(x, 128);
        const auto got = binsOf(frame);
        for (std::size_t k = 0; k < want.size(); ++k) CHECK(std::abs(std::complex<double>(got[k]) - want[k]) < 1e-4);
    }
}

TEST_CASE("a frame size shorter than the hop is refused at validation, before anything starts", "[spectral][stft][istft]") {
    // size 3 with the default hop (512) passed --check and failed only when the node started.
    for (const std::string type : {"spectral.stft", "spectral.spectrogram", "spectral.istft", "spatial.delay_and_sum_beamformer", "spatial.mvdr_beamformer"}) {
        INFO(type);
        const std::string input = type == "spectral.istft" ? "frame<c32>" : "signal<f32>";
        const std::string graph = R"({"format": "isochron-graph/1", "nodes": [
            {"id": "src", "type": "test.feed", "params": {"type": ")" + input + R"("}},
            {"id": "op", "type": ")" + type + R"(", "params": {"size": 3}}]})";
        const std::vector<GraphError> errors = checkGraph(parseGraph(graph), testRegistry());
        CHECK(std::any_of(errors.begin(), errors.end(), [](const GraphError& e) {
            return e.node == "op" && e.message.find("hop 512 is longer than the frame size 3") != std::string::npos;
        }));
    }
}
