// The example plugins do what their docs say, checked against properties and independent
// references over sample rates and random splits: biquad gains at the design frequency, zero
// crossings counted by a plain loop, tone frequencies of pure sines, and custom items that reach
// a consumer and the JSON Lines sink.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>

#include <nlohmann/json.hpp>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/graph_run.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;

namespace {

// `samples` at `rateHz` cut into random segments (seeded), each batch with its progress.
FeedScript randomlySplit(const std::vector<float>& samples, double rateHz, unsigned seed, std::int64_t longest = 700) {
    const Timebase& timebase = Timebase::get(rateHz);
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::int64_t> length(1, longest);
    FeedScript script;
    for (std::int64_t start = 0; start < static_cast<std::int64_t>(samples.size());) {
        const std::int64_t count = std::min<std::int64_t>(length(random), static_cast<std::int64_t>(samples.size()) - start);
        std::vector<float> piece(samples.begin() + start, samples.begin() + start + count);
        script.batches.push_back({{0, Item::signal(makeSignal(piece, start, timebase))}});
        start += count;
    }
    return script;
}

std::vector<float> sine(double frequencyHz, double amplitude, double rateHz, std::size_t count) {
    std::vector<float> samples(count);
    for (std::size_t i = 0; i < count; ++i) samples[i] = static_cast<float>(amplitude * std::sin(2 * std::numbers::pi * frequencyHz * static_cast<double>(i) / rateHz));
    return samples;
}

// Runs feed -> `type` (with `params`, a JSON object) -> collect; returns the collected items.
std::vector<Item> runThrough(const std::string& type, const nlohmann::json& params, FeedScript script) {
    const bool custom = !script.batches.empty() && !script.batches[0].empty() && script.batches[0][0].second.kind() == ItemKind::Custom;
    const std::string feedType = custom ? "custom<tones.tone>" : "signal<f32>";
    feedScripts()["input"] = std::move(script);
    nlohmann::json graph = {{"format", "isochron-graph/1"},
                            {"nodes", {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "input"}, {"type", feedType}}}},
                                       {{"id", "subject"}, {"type", type}, {"params", params}},
                                       {{"id", "out"}, {"type", "test.collect"}, {"params", {{"name", "output"}}}}}},
                            {"edges", nlohmann::json::array()}};
    const OperatorDescriptor* descriptor = registryWithExamplePlugins().find(type);
    const std::string inputPort = descriptor->inputs.at(0).name, outputPort = descriptor->outputs.at(0).name;
    graph["edges"].push_back({{"from", "feed.out0"}, {"to", "subject." + inputPort}});
    graph["edges"].push_back({{"from", "subject." + outputPort}, {"to", "out.in0"}});
    const RunOutcome outcome = runGraphWith(registryWithExamplePlugins(), graph.dump());
    INFO((outcome.failures.empty() ? std::string() : outcome.failures[0]));
    REQUIRE(outcome.failures.empty());
    return collections()["output"].items.at(0);
}

std::vector<float> concatenated(const std::vector<Item>& items) {
    std::vector<float> all;
    for (const Item& item : items) {
        const std::vector<float> samples = samplesOf(item);
        all.insert(all.end(), samples.begin(), samples.end());
    }
    return all;
}

// Amplitude of a steady sinusoid: RMS of the second half times sqrt(2).
double steadyAmplitude(const std::vector<float>& samples) {
    double sum = 0;
    const std::size_t half = samples.size() / 2;
    for (std::size_t i = half; i < samples.size(); ++i) sum += static_cast<double>(samples[i]) * samples[i];
    return std::sqrt(2 * sum / static_cast<double>(samples.size() - half));
}

}  // namespace

TEST_CASE("biquad.filter: the cookbook gains at the design frequency, over rates and random splits", "[plugins][examples]") {
    struct Expectation {
        const char* response;
        double q;
        double gainAtDesignFrequency;  // RBJ: lowpass and highpass |H(f0)| = Q; bandpass 1; notch 0
    };
    for (double rate : {8000.0, 48000.0}) {
        for (const Expectation& e : {Expectation{"lowpass", 0.7071, 0.7071}, Expectation{"lowpass", 4, 4}, Expectation{"highpass", 2, 2},
                                     Expectation{"bandpass", 3, 1}, Expectation{"notch", 1, 0}}) {
            const double designHz = rate / 16;
            INFO(e.response << " q " << e.q << " at " << rate << " Hz");
            const auto input = sine(designHz, 0.5, rate, static_cast<std::size_t>(rate));  // one second
            const auto output = concatenated(runThrough("biquad.filter", {{"response", e.response}, {"frequency_hz", designHz}, {"q", e.q}},
                                                        randomlySplit(input, rate, 7)));
            REQUIRE(output.size() == input.size());
            CHECK(steadyAmplitude(output) == Approx(0.5 * e.gainAtDesignFrequency).margin(0.005));
        }
    }
}

TEST_CASE("biquad.filter: lowpass passes DC and highpass removes it; the split never changes a sample", "[plugins][examples]") {
    const std::vector<float> constant(4000, 0.25f);
    const auto lowpass = concatenated(runThrough("biquad.filter", {{"frequency_hz", 100}}, randomlySplit(constant, 8000, 3)));
    CHECK(lowpass.back() == Approx(0.25).epsilon(1e-4));
    const auto highpass = concatenated(runThrough("biquad.filter", {{"response", "highpass"}, {"frequency_hz", 100}}, randomlySplit(constant, 8000, 3)));
    CHECK(std::fabs(highpass.back()) < 1e-4);

    const auto input = sine(700, 0.5, 8000, 8000);
    const auto whole = concatenated(runThrough("biquad.filter", {{"response", "bandpass"}, {"q", 8}}, randomlySplit(input, 8000, 1, 8000)));
    for (unsigned seed : {2u, 3u, 4u}) {
        CHECK(concatenated(runThrough("biquad.filter", {{"response", "bandpass"}, {"q", 8}}, randomlySplit(input, 8000, seed, 3))) == whole);
    }
}

TEST_CASE("zcr.rate: crossings per second equal a plain count over every window, however the input is split", "[plugins][examples]") {
    std::mt19937 random(11);
    std::normal_distribution<double> noise(0, 1);
    std::vector<float> input(20000);
    for (std::size_t i = 0; i < input.size(); ++i) {
        input[i] = static_cast<float>(std::sin(2 * std::numbers::pi * 300 * static_cast<double>(i) / 16000) + 0.3 * noise(random));
    }
    const std::int64_t window = 400, hop = 150;
    std::vector<double> expected;
    for (std::int64_t start = 0; start + window <= static_cast<std::int64_t>(input.size()); start += hop) {
        int crossings = 0;
        for (std::int64_t i = start + 1; i < start + window; ++i) crossings += (input[i - 1] < 0) != (input[i] < 0);
        expected.push_back(crossings * 16000.0 / (window - 1));
    }
    for (unsigned seed : {1u, 2u, 3u}) {
        const auto items = runThrough("zcr.rate", {{"window", window}, {"hop", hop}}, randomlySplit(input, 16000, seed));
        REQUIRE(items.size() == expected.size());
        for (std::size_t w = 0; w < items.size(); ++w) {
            CHECK(items[w].value() == expected[w]);
            CHECK(items[w].range().start == static_cast<std::int64_t>(w) * hop);
            CHECK(items[w].range().length == window);
        }
    }
    // A pure tone crosses zero twice per period.
    const auto tone = runThrough("zcr.rate", {{"window", 4001}, {"hop", 4000}}, randomlySplit(sine(441, 1, 16000, 16000), 16000, 5));
    for (const Item& item : tone) CHECK(item.value() == Approx(882).margin(4));
}

TEST_CASE("tones.detect and tones.frequency: custom items carry a sine's frequency, peak and RMS", "[plugins][examples]") {
    for (double rate : {16000.0, 48000.0}) {
        for (double frequency : {261.63, 1000.0, 3520.0}) {
            INFO(frequency << " Hz at " << rate << " Hz");
            const auto input = sine(frequency, 0.3, rate, 20000);
            const auto tones = runThrough("tones.detect", {{"window", 2000}}, randomlySplit(input, rate, 9));
            REQUIRE(tones.size() == 10);
            for (const Item& item : tones) {
                REQUIRE(item.kind() == ItemKind::Custom);
                CHECK(item.custom()->typeName() == "tones.tone");
                nlohmann::json fields;
                struct ToJson final : CustomFieldVisitor {
                    nlohmann::json& out;
                    explicit ToJson(nlohmann::json& o) : out(o) {}
                    void number(std::string_view name, double value) override { out[std::string(name)] = value; }
                    void text(std::string_view name, std::string_view value) override { out[std::string(name)] = value; }
                } collect(fields);
                item.custom()->visitFields(collect);
                CHECK(fields["frequency_hz"].get<double>() == Approx(frequency).epsilon(1e-4));
                CHECK(fields["peak"].get<double>() == Approx(0.3).epsilon(0.01));
                CHECK(fields["rms"].get<double>() == Approx(0.3 / std::sqrt(2)).epsilon(0.01));
                CHECK(item.value() == fields["frequency_hz"].get<double>());
            }
            const auto frequencies = runThrough("tones.frequency", nlohmann::json::object(), [&] {
                FeedScript script;
                for (const Item& item : tones) script.batches.push_back({{0, item}});
                return script;
            }());
            REQUIRE(frequencies.size() == tones.size());
            for (std::size_t i = 0; i < tones.size(); ++i) {
                CHECK(frequencies[i].kind() == ItemKind::Scalar);
                CHECK(frequencies[i].value() == tones[i].value());
                CHECK(frequencies[i].range() == tones[i].range());
            }
        }
    }
    // Windows below min_peak hold no tone.
    CHECK(runThrough("tones.detect", {{"window", 2000}}, randomlySplit(sine(1000, 0.005, 16000, 8000), 16000, 2)).empty());
}

TEST_CASE("custom items reach the JSON Lines sink with their type and fields", "[plugins][examples]") {
    ScratchFolder folder("jsonl");
    const auto output = folder.path() / "tones.jsonl";
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"frequency", 440}, {"rate", 8000}, {"duration", 1}}}},
                   {{"id", "detect"}, {"type", "tones.detect"}, {"params", {{"window", 1000}}}},
                   {{"id", "sink"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", output.string()}}}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "detect.in"}}, {{"from", "detect.tones"}, {"to", "sink.in"}}}}};
    REQUIRE(runGraphWith(registryWithExamplePlugins(), graph.dump()).failures.empty());
    std::ifstream in(output);
    int lines = 0;
    for (std::string line; std::getline(in, line); ++lines) {
        const nlohmann::json record = nlohmann::json::parse(line);
        CHECK(record["kind"] == "custom");
        CHECK(record["type"] == "tones.tone");
        CHECK(record["frequency_hz"].get<double>() == Approx(440).epsilon(1e-4));
        CHECK(record["t_end"].get<double>() - record["t_start"].get<double>() == Approx(0.125));
    }
    CHECK(lines == 8);
}
