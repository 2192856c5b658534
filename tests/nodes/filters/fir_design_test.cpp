#include <catch2/catch.hpp>

#include "nodes/filters/fir_design.h"
#include "tests/nodes/filters/filter_test_support.h"

using namespace isochron;
using namespace isochron::filters;
using namespace isochron::test;

namespace {

FirSpecification specificationOf(const nlohmann::json& c, double rateHz) {
    FirSpecification spec;
    spec.response = *firResponseFromName(c["response"].get<std::string>());
    const auto cutoffs = c["cutoffs_hz"].get<std::vector<double>>();
    spec.lowHz = cutoffs[0];
    spec.highHz = cutoffs.size() > 1 ? cutoffs[1] : 0.0;
    spec.rateHz = rateHz;
    spec.taps = c["taps"].get<int>();
    spec.window = c.contains("window") ? *firWindowFromName(c["window"].get<std::string>()) : FirWindow::Kaiser;
    spec.kaiserBeta = c["kaiser_beta"].get<double>();
    return spec;
}

}  // namespace

TEST_CASE("window-method FIR taps equal scipy.signal.firwin's", "[filters][fir]") {
    const double rate = filterReference()["rate"].get<double>();
    for (const auto& c : filterReference()["fir"]) {
        INFO(c["response"].get<std::string>() << " " << c["taps"].get<int>() << " taps, " << c["window"].get<std::string>());
        const std::vector<double> want = c["h"].get<std::vector<double>>();
        const std::vector<double> got = designFir(specificationOf(c, rate));
        REQUIRE(got.size() == want.size());
        for (std::size_t k = 0; k < want.size(); ++k) CHECK(got[k] == Approx(want[k]).margin(1e-12));
    }
}

TEST_CASE("a transition width and attenuation give scipy.signal.kaiserord's length and beta, and firwin's taps", "[filters][fir]") {
    const double rate = filterReference()["rate"].get<double>();
    for (const auto& c : filterReference()["kaiser"]) {
        INFO(c["attenuation_db"].get<double>() << " dB over " << c["transition_hz"].get<double>() << " Hz");
        const KaiserOrder order = kaiserOrder(c["attenuation_db"].get<double>(), c["transition_hz"].get<double>(), rate);
        CHECK(order.beta == Approx(c["kaiser_beta"].get<double>()).epsilon(1e-12));
        const std::string response = c["response"].get<std::string>();
        const int oddIfNeeded = (response == "highpass" || response == "bandstop") && order.taps % 2 == 0 ? order.taps + 1 : order.taps;
        CHECK(oddIfNeeded == c["taps"].get<int>());
        const std::vector<double> want = c["h"].get<std::vector<double>>();
        const std::vector<double> got = designFir(specificationOf(c, rate));
        REQUIRE(got.size() == want.size());
        for (std::size_t k = 0; k < want.size(); ++k) CHECK(got[k] == Approx(want[k]).margin(1e-12));
    }
}

TEST_CASE("FIR designs refuse what cannot be built", "[filters][fir]") {
    FirSpecification spec;
    spec.lowHz = 30000.0;  // above Nyquist at 48 kHz
    CHECK_THROWS_AS(designFir(spec), std::invalid_argument);
    spec.lowHz = 1000.0;
    spec.response = FirResponse::Highpass;
    spec.taps = 64;  // even: a zero at Nyquist
    CHECK_THROWS_AS(designFir(spec), std::invalid_argument);
    spec.response = FirResponse::Bandpass;
    spec.highHz = 500.0;  // below the lower edge
    CHECK_THROWS_AS(designFir(spec), std::invalid_argument);
    CHECK_THROWS_AS(kaiserOrder(5.0, 100.0, 48000.0), std::invalid_argument);
}
