#include <catch2/catch.hpp>

#include "tests/nodes/channels/channel_test_support.h"
#include "tests/nodes/level/level_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 16000;

std::vector<float> processed(const std::string& type, const std::string& params, const std::vector<float>& in, std::uint32_t seed = 1) {
    feedScripts()["dynamics"] = randomlySplit({in}, Timebase::get(kRate), seed, 2000);
    REQUIRE(runGraph(throughOperator("dynamics", type, params, {"in"}, {type == "level.envelope_follower" ? "envelope" : "out"})).completed);
    std::vector<float> out = contiguousSamples(collections()["dynamics"].items[0]);
    feedScripts().clear();
    collections().clear();
    return out;
}

}  // namespace

TEST_CASE("the envelope follower matches the attack/release loop for peak and RMS detectors", "[level][envelope_follower]") {
    std::vector<float> in = noise(16000, 111, 0.8f);
    for (std::size_t i = 6000; i < 10000; ++i) in[i] *= 0.05f;
    std::vector<double> squares(in.size()), magnitudes(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        squares[i] = static_cast<double>(in[i]) * in[i];
        magnitudes[i] = std::fabs(static_cast<double>(in[i]));
    }
    const std::vector<double> peak = attackRelease(magnitudes, 0.002, 0.1, kRate);
    const std::vector<double> rms = attackRelease(squares, 0.002, 0.1, kRate);
    const std::vector<float> gotPeak = processed("level.envelope_follower", R"({"attack": 0.002, "release": 0.1})", in);
    const std::vector<float> gotRms = processed("level.envelope_follower", R"({"detector": "rms", "attack": 0.002, "release": 0.1})", in);
    REQUIRE(gotPeak.size() == in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        REQUIRE(gotPeak[i] == Approx(peak[i]).epsilon(1e-6));
        REQUIRE(gotRms[i] == Approx(std::sqrt(rms[i])).epsilon(1e-6));
    }
}

TEST_CASE("the envelope of a step reaches 1 - 1/e of it after one attack time constant", "[level][envelope_follower]") {
    const std::vector<float> got = processed("level.envelope_follower", R"({"attack": 0.01, "release": 0})", std::vector<float>(1600, 1.0f));
    CHECK(got[159] == Approx(1 - std::exp(-1.0)).epsilon(1e-3));  // sample 159 is the 160th: 10 ms at 16 kHz
}

TEST_CASE("the AGC brings a steady tone to the target level, within its gain limit", "[level][agc]") {
    for (const auto& [inputDb, expectedDb] : std::vector<std::pair<double, double>>{{-40, -20}, {-6, -20}, {-70, -40}}) {
        INFO("input " << inputDb << " dBFS RMS");
        const double amplitude = std::sqrt(2.0) * std::pow(10.0, inputDb / 20);
        const std::vector<float> out = processed("level.agc", R"({"target_db": -20, "max_gain_db": 30, "attack": 0.01, "release": 0.5})",
                                                 sine(amplitude, 300, kRate, 64000));
        CHECK(rmsDb(out, 48000, 64000) == Approx(expectedDb).margin(0.2));  // the last second, settled
    }
}

TEST_CASE("the AGC matches its feed-forward formula sample by sample", "[level][agc]") {
    std::vector<float> in = noise(8000, 121, 0.3f);
    for (std::size_t i = 4000; i < 8000; ++i) in[i] *= 0.001f;
    std::vector<double> squares(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) squares[i] = static_cast<double>(in[i]) * in[i];
    const std::vector<double> m = attackRelease(squares, 0.02, 0.02, kRate);  // the 20 ms mean square
    const std::vector<float> out = processed("level.agc", R"({"target_db": -10, "max_gain_db": 20, "attack": 0.005, "release": 0.2})", in);
    const double target = std::pow(10.0, -0.5);
    const double falling = 1 - std::exp(-1 / (0.005 * kRate));
    const double rising = 1 - std::exp(-1 / (0.2 * kRate));
    double gain = 1;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double wanted = std::min(target / std::sqrt(m[i]), 10.0);
        gain += (wanted - gain) * (wanted > gain ? rising : falling);
        REQUIRE(out[i] == Approx(in[i] * gain).epsilon(1e-5).margin(1e-9));
    }
}

TEST_CASE("the noise gate passes a tone burst and attenuates the noise around it by its range", "[level][noise_gate]") {
    std::vector<float> in = noise(24000, 131, 0.0005f);  // about -72 dBFS RMS: below the threshold
    const std::vector<float> burst = sine(0.3, 500, kRate, 8000);
    for (std::size_t i = 0; i < burst.size(); ++i) in[8000 + i] += burst[i];
    const std::vector<float> out = processed("level.noise_gate",
                                             R"({"threshold_db": -40, "range_db": -60, "hold": 0.05, "attack": 0.001, "release": 0.02})", in);
    CHECK(rmsDb(out, 0, 8000) == Approx(rmsDb(in, 0, 8000) - 60).margin(0.5));          // closed before the burst
    CHECK(rmsDb(out, 8200, 16000) == Approx(rmsDb(in, 8200, 16000)).margin(0.05));       // open during it
    CHECK(rmsDb(out, 20000, 24000) == Approx(rmsDb(in, 20000, 24000) - 60).margin(0.5));  // closed again after hold + release
}

TEST_CASE("the onset detector finds each burst once, within a millisecond of its start", "[level][onset_detector]") {
    std::vector<float> in = noise(48000, 141, 0.002f);
    const std::vector<std::size_t> starts{4000, 13000, 21500, 36000};
    for (std::size_t start : starts) {
        const std::vector<float> burst = sine(0.4, 800, kRate, 3000);
        for (std::size_t i = 0; i < burst.size(); ++i) in[start + i] += burst[i] * static_cast<float>(std::exp(-static_cast<double>(i) / 1500));
    }
    feedScripts()["onsets"] = randomlySplit({in}, Timebase::get(kRate), 6, 1500);
    REQUIRE(runGraph(throughOperator("onsets", "level.onset_detector", "{}", {"in"}, {"onsets"})).completed);
    const std::vector<Item>& events = collections()["onsets"].items[0];
    REQUIRE(events.size() == starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k) {
        CHECK(events[k].range().start >= static_cast<std::int64_t>(starts[k]));
        CHECK(events[k].range().start <= static_cast<std::int64_t>(starts[k]) + 16);
        CHECK(std::string(events[k].event()->label()) == "onset");
        CHECK(events[k].value() >= 10);
    }
    feedScripts().clear();
    collections().clear();
}
