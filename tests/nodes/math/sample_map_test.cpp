#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>

#include "engine/graph/graph_file.h"
#include "engine/schedulers/scheduler.h"
#include "tests/nodes/channels/channel_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

/// Runs `type` with `params` over `in` (split at random points) and returns the output samples.
std::vector<float> mapped(const std::string& type, const std::string& params, const std::vector<float>& in) {
    feedScripts()["map"] = randomlySplit({in}, Timebase::get(8000), 12);
    const RunOutcome outcome = runGraph(throughOperator("map", type, params, {"in"}, {"out"}));
    REQUIRE(outcome.completed);
    std::vector<float> out = contiguousSamples(collections()["map"].items[0]);
    feedScripts().clear();
    collections().clear();
    return out;
}

/// Every output sample equals reference(input) to `tolerance` (relative above 1), NaN where it is NaN.
void checkEach(const std::vector<float>& in, const std::vector<float>& out, const std::function<double(double)>& reference, double tolerance) {
    REQUIRE(out.size() == in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double expected = reference(in[i]);
        if (std::isnan(expected)) {
            REQUIRE(std::isnan(out[i]));
        } else if (std::isinf(expected)) {
            REQUIRE(out[i] == expected);
        } else if (std::abs(out[i] - expected) > tolerance * std::max(1.0, std::abs(expected))) {
            FAIL("in " << in[i] << ": got " << out[i] << ", expected " << expected);
        }
    }
}

}  // namespace

TEST_CASE("the sample maps agree with the C library sample by sample", "[math][sample_map]") {
    std::vector<float> in = noise(3000, 81, 4.0f);
    in[10] = 0.0f;
    in[11] = -0.0f;
    in[12] = 1e-30f;
    checkEach(in, mapped("math.abs", "{}", in), [](double x) { return std::fabs(x); }, 0);
    checkEach(in, mapped("math.scale", R"({"factor": -2.5, "offset": 0.75})", in), [](double x) { return -2.5 * x + 0.75; }, 1e-6);
    checkEach(in, mapped("math.log", "{}", in), [](double x) { return std::log(x); }, 1e-6);
    checkEach(in, mapped("math.log", R"({"base": "10"})", in), [](double x) { return std::log10(x); }, 1e-6);
    checkEach(in, mapped("math.log", R"({"base": "2"})", in), [](double x) { return std::log2(x); }, 1e-6);
    checkEach(in, mapped("math.decibels", "{}", in), [](double x) { return std::max(20.0 * std::log10(std::fabs(x)), -120.0); }, 1e-5);
    checkEach(in, mapped("math.decibels", R"({"quantity": "power", "floor_db": -30})", in),
              [](double x) { return std::max(10.0 * std::log10(std::fabs(x)), -30.0); }, 1e-5);
    checkEach(in, mapped("math.power", "{}", in), [](double x) { return x * x; }, 1e-6);
    checkEach(in, mapped("math.power", R"({"exponent": 0.5})", in), [](double x) { return std::sqrt(x); }, 1e-6);
    checkEach(in, mapped("math.power", R"({"exponent": 3})", in), [](double x) { return x * x * x; }, 1e-5);
    checkEach(in, mapped("math.power", R"({"exponent": -1.5})", in), [](double x) { return std::pow(static_cast<float>(x), -1.5f); }, 1e-5);
    checkEach(in, mapped("math.clip", R"({"low": -0.5, "high": 2})", in), [](double x) { return std::clamp(x, -0.5, 2.0); }, 0);
}

TEST_CASE("decibels agree with log10 over the whole float range, keep infinities and NaN", "[math][sample_map]") {
    std::vector<float> in;
    for (double exponent = -14.9; exponent < 38.5; exponent += 0.0137) in.push_back(static_cast<float>(std::pow(10.0, exponent)) * (in.size() % 2 ? -1.0f : 1.0f));
    in.push_back(std::numeric_limits<float>::max());
    in.push_back(std::numeric_limits<float>::infinity());
    in.push_back(-std::numeric_limits<float>::infinity());
    in.push_back(std::numeric_limits<float>::quiet_NaN());
    const std::vector<float> out = mapped("math.decibels", R"({"floor_db": -300})", in);
    REQUIRE(out.size() == in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double expected = std::max(20.0 * std::log10(std::fabs(static_cast<double>(in[i]))), -300.0);
        if (std::isnan(expected)) REQUIRE(std::isnan(out[i]));
        else if (std::isinf(expected)) REQUIRE(out[i] == expected);
        else if (std::abs(out[i] - expected) > 2e-6 * std::max(10.0, std::abs(expected))) FAIL("in " << in[i] << ": " << out[i] << " dB, expected " << expected);
    }
}

TEST_CASE("scale and clip take live changes; clip refuses low above high", "[math][sample_map]") {
    const std::vector<float> in = noise(500, 82);
    feedScripts()["live"] = randomlySplit({in}, Timebase::get(8000), 1);
    Engine engine(validateGraph(parseGraph(throughOperator("live", "math.scale", "{}", {"in"}, {"out"})), testRegistry()),
                  parseSchedulerText("df"));
    engine.postParameter("op", "factor", 4.0);
    REQUIRE(engine.run().completed);
    checkEach(in, contiguousSamples(collections()["live"].items[0]), [](double x) { return 4.0 * x; }, 0);
    collections().clear();
    CHECK_THROWS_WITH(runGraph(throughOperator("live", "math.clip", R"({"low": 1, "high": 0})", {"in"}, {"out"})),
                      Catch::Contains("low is above high"));
    feedScripts().clear();
    collections().clear();
}

TEST_CASE("phase gives atan2 of every complex bin and keeps the frame's range", "[math][phase]") {
    const Timebase& tb = Timebase::get(8000);
    auto bins = SigSeg<std::complex<float>>::allocate(64, 0, &tb);
    std::vector<float> parts = noise(128, 83);
    for (std::size_t k = 0; k < 64; ++k) bins.writable()[k] = {parts[2 * k], parts[2 * k + 1]};
    bins.writable()[0] = {-1.0f, 0.0f};
    const SampleRange covered{&tb, 256, 512};
    FeedScript script;
    script.batches = {{{0, Item::frame(bins, covered)}}};
    feedScripts()["phase"] = script;
    std::string graph = throughOperator("phase", "math.phase", "{}", {"spectrum"}, {"phase"});
    graph.replace(graph.find(R"("outputs": 1)"), 12, R"("outputs": 1, "type": "frame<c32>")");
    REQUIRE(runGraph(graph).completed);
    const std::vector<Item>& got = collections()["phase"].items[0];
    REQUIRE(got.size() == 1);
    CHECK(got[0].range() == covered);
    const std::vector<float> phases = samplesOf(got[0]);
    for (std::size_t k = 0; k < 64; ++k) CHECK(phases[k] == Approx(std::arg(bins.at(static_cast<std::int64_t>(k)))).margin(1e-6));
    CHECK(phases[0] == Approx(3.14159265).margin(1e-6));
    feedScripts().clear();
    collections().clear();
}
