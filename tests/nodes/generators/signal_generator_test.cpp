#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <numbers>
#include <numeric>
#include <thread>

#include "engine/graph/graph_error.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "tests/nodes/io/io_test_support.h"
#include "tests/support/graph_run.h"

using namespace isochron;
using namespace isochron::test;
using nlohmann::json;

namespace {

/// Runs generators.signal_generator with `params` and returns its output items.
std::vector<Item> generate(const json& params, const std::string& scheduler = "df") {
    RunOutcome outcome = runGraph(sourceToCollect("generators.signal_generator", params, 0, "generated"), scheduler);
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    std::vector<Item> items = collections()["generated"].items[0];
    collections().clear();
    return items;
}

std::vector<float> generateSamples(const json& params) { return concatenated(generate(params)); }

/// Sign changes from negative to non-negative in samples [from, to).
int risingZeroCrossings(const std::vector<float>& x, std::size_t from, std::size_t to) {
    int count = 0;
    for (std::size_t i = std::max<std::size_t>(from, 1); i < to; ++i) count += (x[i - 1] < 0 && x[i] >= 0) ? 1 : 0;
    return count;
}

double mean(const std::vector<float>& x) { return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size()); }

double rms(const std::vector<float>& x) {
    double sum = 0;
    for (float v : x) sum += static_cast<double>(v) * v;
    return std::sqrt(sum / static_cast<double>(x.size()));
}

/// The frequency (Hz) of the largest bin of a naive DFT of `x` between `lowHz` and `highHz` in 1 Hz steps.
double dftPeakHz(const std::vector<float>& x, double rateHz, double lowHz, double highHz) {
    double bestHz = lowHz;
    double bestPower = -1;
    for (double f = lowHz; f <= highHz; f += 1.0) {
        double re = 0, im = 0;
        for (std::size_t n = 0; n < x.size(); ++n) {
            const double phase = 2.0 * std::numbers::pi * f * static_cast<double>(n) / rateHz;
            re += x[n] * std::cos(phase);
            im -= x[n] * std::sin(phase);
        }
        if (re * re + im * im > bestPower) {
            bestPower = re * re + im * im;
            bestHz = f;
        }
    }
    return bestHz;
}

}  // namespace

TEST_CASE("signal_generator sine has its frequency, amplitude, length and timebase", "[generators][signal_generator]") {
    const std::vector<Item> items = generate({{"waveform", "sine"}, {"rate", 48000}, {"frequency", 1000}, {"amplitude", 0.5},
                                              {"duration", 1}, {"block", 4096}});
    REQUIRE(!items.empty());
    CHECK(contiguousFrom(items, 0));
    for (const Item& item : items) {
        CHECK(item.segment().length() <= 4096);
        CHECK(item.segment().timebase() == &Timebase::get(48000, 0, Clock::media()));
    }
    const std::vector<float> x = concatenated(items);
    REQUIRE(x.size() == 48000);
    CHECK(std::abs(risingZeroCrossings(x, 0, x.size()) - 1000) <= 1);
    CHECK(rms(x) == Approx(0.5 / std::sqrt(2.0)).epsilon(0.01));
    CHECK(*std::max_element(x.begin(), x.end()) == Approx(0.5).epsilon(1e-4));

    const std::vector<float> odd = generateSamples({{"rate", 8000}, {"frequency", 1234}, {"amplitude", 0.1}, {"duration", 0.5}});
    REQUIRE(odd.size() == 4000);
    CHECK(dftPeakHz(odd, 8000, 1000, 1500) == 1234);
    CHECK(rms(odd) == Approx(0.1 / std::sqrt(2.0)).epsilon(0.01));
}

TEST_CASE("signal_generator output does not depend on block size or scheduler", "[generators][signal_generator]") {
    for (const std::string waveform : {"sine", "noise", "chirp", "clicks"}) {
        const json base = {{"waveform", waveform}, {"rate", 48000}, {"duration", 0.05}, {"click_interval", 0.001}};
        json reference = base;
        reference["block"] = 4096;
        const std::vector<float> expected = generateSamples(reference);
        REQUIRE(expected.size() == 2400);
        for (int block : {1, 7, 4096}) {
            for (const auto& scheduler : schedulerMatrix()) {
                INFO(waveform << ", block " << block << ", scheduler " << scheduler);
                json params = base;
                params["block"] = block;
                const std::vector<Item> items = generate(params, scheduler);
                CHECK(contiguousFrom(items, 0));
                CHECK(concatenated(items) == expected);
            }
        }
    }
}

TEST_CASE("signal_generator noise is Gaussian with standard deviation = amplitude, fixed by the seed",
          "[generators][signal_generator]") {
    const json params = {{"waveform", "noise"}, {"rate", 48000}, {"amplitude", 0.5}, {"duration", 2}, {"seed", 7}};
    const std::vector<float> x = generateSamples(params);
    REQUIRE(x.size() == 96000);
    const double m = mean(x);
    CHECK(std::abs(m) < 4 * 0.5 / std::sqrt(96000.0));
    double variance = 0;
    for (float v : x) variance += (v - m) * (v - m);
    const double deviation = std::sqrt(variance / static_cast<double>(x.size()));
    CHECK(deviation == Approx(0.5).epsilon(0.01));
    const auto withinOneSigma = std::count_if(x.begin(), x.end(), [](float v) { return std::abs(v) < 0.5f; });
    CHECK(static_cast<double>(withinOneSigma) / static_cast<double>(x.size()) == Approx(0.6827).margin(0.01));

    CHECK(generateSamples(params) == x);
    json otherSeed = params;
    otherSeed["seed"] = 8;
    CHECK(generateSamples(otherSeed) != x);
}

TEST_CASE("signal_generator chirp sweeps its frequency up from frequency to end_frequency", "[generators][signal_generator]") {
    const std::vector<float> x = generateSamples(
        {{"waveform", "chirp"}, {"rate", 48000}, {"frequency", 200}, {"end_frequency", 2000}, {"amplitude", 1}, {"duration", 1}});
    REQUIRE(x.size() == 48000);
    int previous = 0;
    for (int quarter = 0; quarter < 4; ++quarter) {
        INFO("quarter " << quarter);
        // Rising crossings in a quarter = its mean frequency x 0.25 s.
        const int crossings = risingZeroCrossings(x, static_cast<std::size_t>(quarter) * 12000, static_cast<std::size_t>(quarter + 1) * 12000);
        const double expected = 0.25 * (200.0 + 1800.0 * (quarter + 0.5) / 4.0);
        CHECK(std::abs(crossings - expected) <= 2);
        CHECK(crossings > previous);
        previous = crossings;
    }
    CHECK(rms(x) == Approx(1 / std::sqrt(2.0)).epsilon(0.01));
}

TEST_CASE("signal_generator clicks are single samples every click_interval", "[generators][signal_generator]") {
    std::vector<float> x = generateSamples({{"waveform", "clicks"}, {"rate", 8000}, {"amplitude", 0.7}, {"duration", 0.1}, {"click_interval", 0.01}});
    REQUIRE(x.size() == 800);
    for (std::size_t n = 0; n < x.size(); ++n) {
        INFO("sample " << n);
        CHECK(x[n] == (n % 80 == 0 ? 0.7f : 0.0f));
    }
    // A period of 80.8 samples: click k at round(80.8 k).
    x = generateSamples({{"waveform", "clicks"}, {"rate", 8000}, {"amplitude", 1}, {"duration", 0.1}, {"click_interval", 0.0101}});
    std::vector<std::size_t> clicks;
    for (std::size_t n = 0; n < x.size(); ++n) {
        if (x[n] != 0) clicks.push_back(n);
    }
    CHECK(clicks == std::vector<std::size_t>{0, 81, 162, 242, 323, 404, 485, 566, 646, 727});
}

TEST_CASE("signal_generator refuses a chirp without a duration", "[generators][signal_generator]") {
    try {
        runGraph(sourceToCollect("generators.signal_generator", {{"waveform", "chirp"}, {"duration", 0}}, 0, "refused"));
        FAIL("the engine started");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("chirp needs a duration"));
    }
    collections().clear();
}

TEST_CASE("signal_generator: a chirp without a duration is refused at validation (--check), naming the parameter",
          "[generators][signal_generator]") {
    try {
        validateGraph(parseGraph(sourceToCollect("generators.signal_generator", {{"waveform", "chirp"}, {"duration", 0}}, 0, "refused")),
                      testRegistry());
        FAIL("validation passed");
    } catch (const GraphException& e) {
        CHECK_THAT(e.what(), Catch::Contains("duration") && Catch::Contains("chirp needs a duration"));
    }
}

TEST_CASE("signal_generator keeps the phase continuous when the frequency changes live", "[generators][signal_generator][timing]") {
    constexpr double kRate = 8000;
    constexpr double kAmplitude = 0.5;
    const json params = {{"rate", kRate}, {"frequency", 440}, {"amplitude", kAmplitude}, {"duration", 0.4}, {"block", 80}, {"pace", 1}};
    ValidatedGraph graph = validateGraph(
        parseGraph(sourceToCollect("generators.signal_generator", params, 0, "live")), testRegistry());
    Engine engine(graph, parseSchedulerText("df"));
    std::thread changer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        engine.postParameter("src", "frequency", 1234.0);
    });
    RunOutcome outcome = engine.run();
    changer.join();
    CHECK(outcome.completed);
    const std::vector<float> x = concatenated(collections()["live"].items[0]);
    collections().clear();
    REQUIRE(x.size() == 3200);

    auto sine = [&](double cycles) { return kAmplitude * std::sin(2.0 * std::numbers::pi * (cycles - std::floor(cycles))); };
    std::size_t firstDifferent = 0;
    while (firstDifferent < x.size() && std::abs(x[firstDifferent] - sine(440.0 * static_cast<double>(firstDifferent) / kRate)) < 1e-5) {
        ++firstDifferent;
    }
    // With a continuous phase the first sample at the new frequency still matches the old formula.
    const std::size_t change = firstDifferent - 1;
    INFO("frequency changed at sample " << change);
    CHECK(change % 80 == 0);  // at a block boundary
    CHECK(change > 400);      // well after the start, well before the end
    CHECK(change < 2800);
    const double cyclesAtChange = 440.0 * static_cast<double>(change) / kRate;
    for (std::size_t n = change; n < x.size(); ++n) {
        const double expected = sine(cyclesAtChange + 1234.0 * static_cast<double>(n - change) / kRate);
        if (std::abs(x[n] - expected) >= 1e-5) FAIL("sample " << n << " is " << x[n] << ", expected " << expected);
    }
}
