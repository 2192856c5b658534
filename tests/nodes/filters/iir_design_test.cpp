#include <catch2/catch.hpp>

#include <algorithm>

#include "nodes/filters/cookbook_design.h"
#include "nodes/filters/iir_design.h"
#include "tests/nodes/filters/filter_test_support.h"

using namespace isochron;
using namespace isochron::filters;
using namespace isochron::test;

namespace {

IirSpecification specificationOf(const nlohmann::json& c, double rateHz) {
    IirSpecification spec;
    spec.family = c["family"] == "butterworth" ? IirFamily::Butterworth : IirFamily::Chebyshev1;
    spec.response = *iirResponseFromName(c["response"].get<std::string>());
    spec.order = c["order"].get<int>();
    const auto cutoffs = c["cutoffs_hz"].get<std::vector<double>>();
    spec.lowHz = cutoffs[0];
    spec.highHz = cutoffs.size() > 1 ? cutoffs[1] : 0.0;
    spec.rateHz = rateHz;
    spec.rippleDb = c["ripple_db"].get<double>();
    return spec;
}

/// Every root of `want` has a distinct partner in `got` within `tolerance`.
void checkSameRoots(std::vector<std::complex<double>> got, const std::vector<std::complex<double>>& want, double tolerance) {
    REQUIRE(got.size() == want.size());
    for (const auto& w : want) {
        auto nearest = std::min_element(got.begin(), got.end(), [&](auto a, auto b) { return std::abs(a - w) < std::abs(b - w); });
        CHECK(std::abs(*nearest - w) < tolerance);
        got.erase(nearest);
    }
}

}  // namespace

TEST_CASE("Butterworth and Chebyshev I zeros, poles and gain equal scipy's", "[filters][iir]") {
    const double rate = filterReference()["rate"].get<double>();
    for (const auto& c : filterReference()["iir"]) {
        INFO(c["family"].get<std::string>() << " " << c["response"].get<std::string>() << " order " << c["order"].get<int>());
        const ZerosPolesGain got = designIirZpk(specificationOf(c, rate));
        checkSameRoots(got.poles, complexValues(c["poles"]), 1e-9);
        // Zeros on the unit circle are repeated roots: compare them less tightly.
        checkSameRoots(got.zeros, complexValues(c["zeros"]), 1e-6);
        CHECK(got.gain == Approx(c["gain"].get<double>()).epsilon(1e-9));
    }
}

TEST_CASE("the designed cascades respond as scipy's second-order sections do", "[filters][iir]") {
    const double rate = filterReference()["rate"].get<double>();
    for (const auto& c : filterReference()["iir"]) {
        INFO(c["family"].get<std::string>() << " " << c["response"].get<std::string>() << " order " << c["order"].get<int>());
        const std::vector<BiquadSection> sections = designIir(specificationOf(c, rate));
        CHECK(sections.size() == c["sos"].size());
        const auto hz = c["response_hz"].get<std::vector<double>>();
        const auto want = complexValues(c["frequency_response"]);
        for (std::size_t i = 0; i < hz.size(); ++i) {
            INFO(hz[i] << " Hz");
            CHECK(std::abs(cascadeResponse(sections, hz[i], rate) - want[i]) < 1e-8 * std::max(1.0, std::abs(want[i])));
        }
    }
}

TEST_CASE("cookbook equalizers have the cookbook's coefficients and gains where the cookbook puts them", "[filters][cookbook]") {
    const double rate = filterReference()["rate"].get<double>();
    for (const auto& c : filterReference()["cookbook"]) {
        const std::string shape = c["shape"].get<std::string>();
        INFO(shape << " at " << c["frequency_hz"].get<double>() << " Hz, " << c["gain_db"].get<double>() << " dB");
        CookbookSpecification spec;
        spec.shape = shape == "peaking" ? CookbookShape::Peaking : shape == "low_shelf" ? CookbookShape::LowShelf : CookbookShape::HighShelf;
        spec.frequencyHz = c["frequency_hz"].get<double>();
        spec.gainDb = c["gain_db"].get<double>();
        spec.q = spec.slope = c["width"].get<double>();
        spec.rateHz = rate;
        const BiquadSection s = designCookbook(spec);
        const auto b = c["b"].get<std::vector<double>>();
        const auto a = c["a"].get<std::vector<double>>();
        CHECK(s.b0 == Approx(b[0]).epsilon(1e-12));
        CHECK(s.b1 == Approx(b[1]).epsilon(1e-12));
        CHECK(s.b2 == Approx(b[2]).epsilon(1e-12));
        CHECK(s.a1 == Approx(a[1]).epsilon(1e-12));
        CHECK(s.a2 == Approx(a[2]).epsilon(1e-12));
        const std::vector<BiquadSection> one{s};
        const auto db = [&](double hz) { return 20.0 * std::log10(std::abs(cascadeResponse(one, hz, rate))); };
        if (spec.shape == CookbookShape::Peaking) {
            CHECK(db(spec.frequencyHz) == Approx(spec.gainDb).margin(1e-9));
            CHECK(db(0.0) == Approx(0.0).margin(1e-9));
            CHECK(db(rate / 2) == Approx(0.0).margin(1e-9));
        } else {
            const bool low = spec.shape == CookbookShape::LowShelf;
            CHECK(db(0.0) == Approx(low ? spec.gainDb : 0.0).margin(1e-9));
            CHECK(db(rate / 2) == Approx(low ? 0.0 : spec.gainDb).margin(1e-9));
            CHECK(db(spec.frequencyHz) == Approx(spec.gainDb / 2).margin(1e-9));
        }
    }
}

TEST_CASE("IIR designs refuse what cannot be built", "[filters][iir]") {
    IirSpecification spec;
    spec.order = 0;
    CHECK_THROWS_AS(designIir(spec), std::invalid_argument);
    spec.order = 4;
    spec.lowHz = 24000.0;
    CHECK_THROWS_WITH(designIir(spec), "cutoff_hz (24000 Hz) must lie between 0 Hz and half the rate (24000 Hz)");
    spec.lowHz = 3000.0;
    spec.response = IirResponse::Bandpass;
    spec.highHz = 1000.0;
    CHECK_THROWS_WITH(designIir(spec), "high_cutoff_hz (1000 Hz) must lie above cutoff_hz (3000 Hz)");
    spec.highHz = 30000.0;
    CHECK_THROWS_WITH(designIir(spec), "high_cutoff_hz (30000 Hz) must lie below half the rate (24000 Hz)");
    spec.response = IirResponse::Lowpass;
    spec.lowHz = 1000.0;
    spec.family = IirFamily::Chebyshev1;
    spec.rippleDb = 0.0;
    CHECK_THROWS_AS(designIir(spec), std::invalid_argument);
    CookbookSpecification shelf;
    shelf.shape = CookbookShape::LowShelf;
    shelf.gainDb = 24.0;
    shelf.slope = 5.0;  // far too steep for 24 dB
    CHECK_THROWS_AS(designCookbook(shelf), std::invalid_argument);
}
