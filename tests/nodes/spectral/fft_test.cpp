#include <catch2/catch.hpp>

#include <cmath>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "nodes/spectral/fft_plan_cache.h"
#include "nodes/spectral/window_functions.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Largest |X_k - reference_k| over the bins, relative to sqrt(N * E), the bound of any bin's
/// magnitude for an input of energy E (so the tolerance holds for every size).
double relativeSpectrumError(const std::vector<std::complex<float>>& bins,
                             const std::vector<std::complex<double>>& reference, const std::vector<double>& input,
                             std::size_t size) {
    double energy = 0.0;
    for (double x : input) energy += x * x;
    double worst = 0.0;
    for (std::size_t k = 0; k < reference.size(); ++k) {
        worst = std::max(worst, std::abs(std::complex<double>(bins[k]) - reference[k]));
    }
    return worst / std::max(std::sqrt(static_cast<double>(size) * energy), 1e-30);
}

/// The windowed input in double, as the reference sees it.
std::vector<double> windowed(const std::vector<float>& samples, const std::string& window) {
    const std::vector<double> w = referenceWindow(window, samples.size());
    std::vector<double> x(samples.size());
    for (std::size_t n = 0; n < samples.size(); ++n) x[n] = static_cast<double>(samples[n]) * w[n];
    return x;
}

}  // namespace

TEST_CASE("fillWindow matches the textbook periodic windows", "[spectral][window]") {
    for (const std::string& name : windowShapeNames()) {
        for (std::size_t length : {1u, 2u, 7u, 64u, 1000u}) {
            INFO(name << " window of " << length);
            std::vector<float> coefficients(length);
            fillWindow(*windowShapeFromName(name), coefficients);
            const std::vector<double> reference = referenceWindow(name, length);
            for (std::size_t n = 0; n < length; ++n) CHECK(coefficients[n] == Approx(reference[n]).margin(1e-7));
        }
    }
    CHECK_FALSE(windowShapeFromName("kaiser").has_value());
}

TEST_CASE("spectral.fft matches a direct DFT for every size and window", "[spectral][fft]") {
    const Timebase& timebase = Timebase::get(48000);
    std::mt19937 random(20240611);
    const std::vector<std::size_t> sizes = {1, 2, 3, 8, 32, 100, 256, 1024, 1000};
    for (const std::string& window : windowShapeNames()) {
        INFO("window " << window);
        std::vector<std::vector<float>> windows;
        std::vector<Item> inputs;
        std::int64_t start = 0;
        for (std::size_t size : sizes) {
            windows.push_back(randomSamples(size, random));
            inputs.push_back(Item::signal(randomlySplit(windows.back(), start, timebase, random)));
            start += static_cast<std::int64_t>(size);
        }
        NodeRun run = runNode("spectral.fft", {{"window", window}}, "signal<f32>", "in", {"spectrum"}, inputs);
        REQUIRE(run.outcome.completed);
        REQUIRE(run.outcome.failures.empty());
        REQUIRE(run.outputs[0].size() == sizes.size());
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            INFO("size " << sizes[i]);
            const Item& spectrum = run.outputs[0][i];
            CHECK(spectrum.kind() == ItemKind::Frame);
            CHECK(spectrum.range() == inputs[i].range());
            const auto bins = binsOf(spectrum);
            REQUIRE(bins.size() == sizes[i] / 2 + 1);
            const std::vector<double> x = windowed(windows[i], window);
            CHECK(relativeSpectrumError(bins, referenceDft(x, sizes[i]), x, sizes[i]) < 1e-6);
        }
    }
}

TEST_CASE("spectral.fft zero-pads windows shorter than size, windowing only their own samples", "[spectral][fft]") {
    const Timebase& timebase = Timebase::get(8000);
    std::mt19937 random(7);
    const std::size_t size = 128;
    const std::vector<std::size_t> lengths = {128, 100, 37, 1, 0};
    std::vector<std::vector<float>> windows;
    std::vector<Item> inputs;
    std::int64_t start = 0;
    for (std::size_t length : lengths) {
        windows.push_back(randomSamples(length, random));
        inputs.push_back(Item::signal(length == 0 ? makeSignal({}, start, timebase)
                                                  : randomlySplit(windows.back(), start, timebase, random)));
        start += static_cast<std::int64_t>(length);
    }
    NodeRun run = runNode("spectral.fft", {{"size", size}, {"window", "hann"}}, "signal<f32>", "in", {"spectrum"}, inputs);
    REQUIRE(run.outcome.failures.empty());
    REQUIRE(run.outputs[0].size() == lengths.size());
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        INFO("window of " << lengths[i] << " samples");
        const auto bins = binsOf(run.outputs[0][i]);
        REQUIRE(bins.size() == size / 2 + 1);
        CHECK(run.outputs[0][i].range() == inputs[i].range());
        const std::vector<double> x = windowed(windows[i], "hann");
        CHECK(relativeSpectrumError(bins, referenceDft(x, size), x, size) < 1e-6);
    }
}

TEST_CASE("spectral.fft refuses a window longer than size, naming the node and both lengths", "[spectral][fft]") {
    const Timebase& timebase = Timebase::get(8000);
    std::mt19937 random(3);
    std::vector<Item> inputs = {Item::signal(makeSignal(randomSamples(256, random), 0, timebase)),
                                Item::signal(makeSignal(randomSamples(300, random), 256, timebase))};
    NodeRun run = runNode("spectral.fft", {{"size", 256}}, "signal<f32>", "in", {"spectrum"}, inputs);
    REQUIRE(run.outcome.failures.size() == 1);
    const std::string& failure = run.outcome.failures[0];
    CHECK_THAT(failure, Catch::Contains("node 'op'") && Catch::Contains("300 samples") && Catch::Contains("size 256"));
    CHECK(run.outputs[0].size() == 1);  // the window before the bad one was transformed
}

TEST_CASE("spectral.fft refuses an empty window when it follows window lengths", "[spectral][fft]") {
    NodeRun run = runNode("spectral.fft", nlohmann::json::object(), "signal<f32>", "in", {"spectrum"},
                          {Item::signal(makeSignal({}, 0, Timebase::get(8000)))});
    REQUIRE(run.outcome.failures.size() == 1);
    CHECK_THAT(run.outcome.failures[0], Catch::Contains("node 'op'") && Catch::Contains("empty window"));
}

TEST_CASE("spectral.fft keeps Parseval's identity for even sizes", "[spectral][fft]") {
    const Timebase& timebase = Timebase::get(1000);
    std::mt19937 random(11);
    for (std::size_t size : {2u, 8u, 100u, 1024u, 4096u}) {
        INFO("size " << size);
        const std::vector<float> samples = randomSamples(size, random);
        NodeRun run = runNode("spectral.fft", nlohmann::json::object(), "signal<f32>", "in", {"spectrum"},
                              {Item::signal(randomlySplit(samples, 0, timebase, random))});
        REQUIRE(run.outputs[0].size() == 1);
        const auto bins = binsOf(run.outputs[0][0]);
        double timeEnergy = 0.0;
        for (float s : samples) timeEnergy += static_cast<double>(s) * s;
        double spectrumEnergy = std::norm(std::complex<double>(bins.front())) + std::norm(std::complex<double>(bins.back()));
        for (std::size_t k = 1; k + 1 < bins.size(); ++k) spectrumEnergy += 2.0 * std::norm(std::complex<double>(bins[k]));
        CHECK(spectrumEnergy / static_cast<double>(size) == Approx(timeEnergy).epsilon(1e-5));
    }
}

TEST_CASE("spectral.fft with plan_effort measure gives the same spectrum", "[spectral][fft]") {
    const Timebase& timebase = Timebase::get(1000);
    std::mt19937 random(5);
    const std::vector<float> samples = randomSamples(64, random);
    NodeRun run = runNode("spectral.fft", {{"size", 64}, {"plan_effort", "measure"}, {"window", "blackman"}},
                          "signal<f32>", "in", {"spectrum"}, {Item::signal(makeSignal(samples, 0, timebase))});
    REQUIRE(run.outputs[0].size() == 1);
    const std::vector<double> x = windowed(samples, "blackman");
    CHECK(relativeSpectrumError(binsOf(run.outputs[0][0]), referenceDft(x, 64), x, 64) < 1e-6);
}

TEST_CASE("spectral.fft applies a live window change", "[spectral][fft]") {
    const Timebase& timebase = Timebase::get(1000);
    std::mt19937 random(8);
    const std::vector<float> samples = randomSamples(48, random);
    const char* graphText = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "live"}},
        {"id": "fft", "type": "spectral.fft", "params": {"window": "none"}},
        {"id": "sink", "type": "test.collect", "params": {"name": "live"}}
      ],
      "edges": [{"from": "feed.out0", "to": "fft.in"}, {"from": "fft.spectrum", "to": "sink.in0"}]
    })";
    feedScripts()["live"].batches = {{{0, Item::signal(makeSignal(samples, 0, timebase))}}};
    Engine engine(validateGraph(parseGraph(graphText), testRegistry()), parseSchedulerText("df"));
    engine.postParameter("fft", "window", std::string("hann"));
    RunOutcome outcome = engine.run();
    REQUIRE(outcome.failures.empty());
    const Collected& got = collections()["live"];
    REQUIRE(got.items[0].size() == 1);
    const std::vector<double> x = windowed(samples, "hann");
    CHECK(relativeSpectrumError(binsOf(got.items[0][0]), referenceDft(x, 48), x, 48) < 1e-6);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("FftPlanCache: nodes of the same size and effort share one plan", "[spectral][fft][plan_cache]") {
    FftPlanCache& cache = FftPlanCache::instance();
    const std::size_t before = cache.planCount();
    const char* twoNodes = R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "plans"}},
        {"id": "left", "type": "spectral.fft", "params": {"size": 4099}},
        {"id": "right", "type": "spectral.fft", "params": {"size": 4099, "window": "hann"}},
        {"id": "sink", "type": "test.collect", "params": {"name": "plans", "inputs": 2}}
      ],
      "edges": [
        {"from": "feed.out0", "to": "left.in"}, {"from": "feed.out0", "to": "right.in"},
        {"from": "left.spectrum", "to": "sink.in0"}, {"from": "right.spectrum", "to": "sink.in1"}
      ]
    })";
    feedScripts()["plans"] = FeedScript{};
    RunOutcome outcome = runGraph(twoNodes);
    CHECK(outcome.completed);
    CHECK(cache.planCount() == before + 1);
    const RealForwardPlan& plan = cache.realForward(4099, PlanEffort::Estimate);
    CHECK(cache.planCount() == before + 1);
    CHECK(plan.binCount() == 2050);
    CHECK(&cache.realForward(4099, PlanEffort::Estimate) == &plan);
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("spectral.fft: validation refuses a size shorter than the windows its feeding node states", "[spectral][fft]") {
    // size 3 behind 4096-sample blocks passed validation (--check said valid) and failed the run.
    auto checked = [](const std::string& feeder, std::int64_t size) {
        const nlohmann::json nodes = {feeder == "rewindow"
                                          ? nlohmann::json{{"id", "win"}, {"type", "segments.rewindow"}, {"params", {{"window", 512}, {"hop", 512}}}}
                                          : nlohmann::json{{"id", "win"}, {"type", "generators.signal_generator"}, {"params", {{"block", 512}}}},
                                      {{"id", "gen"}, {"type", "generators.signal_generator"}},
                                      {{"id", "fft"}, {"type", "spectral.fft"}, {"params", {{"size", size}}}},
                                      {{"id", "out"}, {"type", "io.null_sink"}}};
        nlohmann::json edges = {{{"from", "win.out"}, {"to", "fft.in"}}, {{"from", "fft.spectrum"}, {"to", "out.in"}}};
        if (feeder == "rewindow") edges.push_back({{"from", "gen.out"}, {"to", "win.in"}});
        nlohmann::json graph = {{"format", "isochron-graph/1"}, {"nodes", nodes}, {"edges", edges}};
        if (feeder != "rewindow") graph["nodes"].erase(1);
        try {
            validateGraph(parseGraph(graph.dump()), testRegistry());
        } catch (const GraphException& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    for (const std::string feeder : {"rewindow", "generator"}) {
        INFO(feeder);
        const std::string param = feeder == "rewindow" ? "window" : "block";
        CHECK_THAT(checked(feeder, 3), Catch::Contains("node 'fft', parameter 'size': 3 is shorter than the windows of 512 samples node 'win' sends (its "
                                                       "parameter '" + param + "'): raise 'size' to at least 512"));
        CHECK(checked(feeder, 512).empty());
        CHECK(checked(feeder, 1024).empty());
        CHECK(checked(feeder, 0).empty());
    }
}
