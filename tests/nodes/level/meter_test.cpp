#include <catch2/catch.hpp>

#include "tests/nodes/channels/channel_test_support.h"
#include "tests/nodes/level/level_test_support.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 16000;

std::vector<Item> readings(const std::string& type, const std::string& params, const std::vector<float>& in, std::uint32_t seed,
                           const std::string& scheduler = "df") {
    feedScripts()["meter"] = randomlySplit({in}, Timebase::get(kRate), seed, 3000);
    REQUIRE(runGraph(throughOperator("meter", type, params, {"in"}, {"level"}), scheduler).completed);
    std::vector<Item> got = collections()["meter"].items[0];
    feedScripts().clear();
    collections().clear();
    return got;
}

}  // namespace

TEST_CASE("meters report once per interval, each reading the detector at the interval's last sample", "[level][meter]") {
    std::vector<float> in = noise(20000, 101, 0.5f);
    for (std::size_t i = 8000; i < 12000; ++i) in[i] *= 0.01f;  // a quiet stretch: the release shows
    std::vector<double> squares(in.size()), magnitudes(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        squares[i] = static_cast<double>(in[i]) * in[i];
        magnitudes[i] = std::fabs(static_cast<double>(in[i]));
    }
    struct Case {
        const char* type;
        const char* params;
        std::vector<double> detector;
        double decibelsPerDecade;
    };
    const Case cases[] = {
        {"level.rms_meter", R"({"attack": 0.01, "release": 0.2, "interval": 1000})", attackRelease(squares, 0.01, 0.2, kRate), 10},
        {"level.peak_meter", R"({"interval": 1000})", attackRelease(magnitudes, 0.0, 1.7, kRate), 20},
    };
    for (const Case& c : cases) {
        for (const auto& scheduler : schedulerMatrix()) {
            INFO(c.type << ", scheduler " << scheduler);
            const std::vector<Item> got = readings(c.type, c.params, in, 4, scheduler);
            REQUIRE(got.size() == 20);
            for (std::size_t k = 0; k < got.size(); ++k) {
                CHECK(got[k].range().start == static_cast<std::int64_t>(1000 * k));
                CHECK(got[k].range().length == 1000);
                CHECK(got[k].value() == Approx(c.decibelsPerDecade * std::log10(c.detector[1000 * k + 999])).margin(1e-4));
            }
        }
    }
}

TEST_CASE("a settled RMS meter reads a sine 3.01 dB below its peak; a peak meter reads the peak", "[level][meter]") {
    const std::vector<float> in = sine(0.5, 440, kRate, 32000);
    const std::vector<Item> rms = readings("level.rms_meter", "{}", in, 1);
    CHECK(rms.back().value() == Approx(20 * std::log10(0.5) - 3.0103).margin(0.1));  // 0.3 s time constant, ripple < 0.1 dB
    const std::vector<Item> peak = readings("level.peak_meter", "{}", in, 2);
    CHECK(peak.back().value() == Approx(20 * std::log10(0.5)).margin(0.05));
}

TEST_CASE("a meter's last reading covers the samples after the last whole interval; silence reads the floor", "[level][meter]") {
    const std::vector<Item> got = readings("level.rms_meter", R"({"interval": 1000, "floor_db": -90})", std::vector<float>(2500, 0.0f), 3);
    REQUIRE(got.size() == 3);
    CHECK(got[2].range().start == 2000);
    CHECK(got[2].range().length == 500);
    for (const Item& reading : got) CHECK(reading.value() == -90);
}
