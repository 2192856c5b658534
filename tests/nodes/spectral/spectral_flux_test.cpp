// spectral.spectral_flux against Dixon's definition computed in numpy (committed values).
#include <catch2/catch.hpp>

#include "tests/nodes/spectral/spectral_reference.h"
#include "tests/nodes/spectral/spectral_test_support.h"

using namespace isochron;
using namespace isochron::test;

TEST_CASE("spectral.spectral_flux matches the reference for each norm", "[spectral][flux]") {
    const auto frames = referenceStftFrames();
    std::vector<Item> inputs;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        std::vector<float> magnitude;
        for (const auto& bin : frames[f]) magnitude.push_back(static_cast<float>(std::abs(bin)));
        inputs.push_back(referenceFrame(magnitude, static_cast<std::int64_t>(f) * 32 - 32, 64));
    }
    struct Case {
        const char* norm;
        bool rectify;
        const char* key;
    };
    for (const Case& c : {Case{"l1", true, "l1_rectified"}, Case{"l2", true, "l2_rectified"}, Case{"l1", false, "l1"}}) {
        INFO(c.key);
        NodeRun run = runNode("spectral.spectral_flux", {{"norm", c.norm}, {"rectify", c.rectify}}, "frame<f32>", "in", {"flux"}, inputs);
        REQUIRE(run.outcome.failures.empty());
        const auto want = spectralReference()["flux"][c.key].get<std::vector<double>>();
        REQUIRE(run.outputs[0].size() == want.size());
        for (std::size_t f = 0; f < want.size(); ++f) {
            CHECK(run.outputs[0][f].kind() == ItemKind::Scalar);
            CHECK(run.outputs[0][f].range() == inputs[f].range());
            CHECK(run.outputs[0][f].value() == Approx(want[f]).epsilon(1e-5).margin(1e-6));
        }
    }
}

TEST_CASE("spectral.spectral_flux refuses frames that change length", "[spectral][flux]") {
    NodeRun run = runNode("spectral.spectral_flux", nlohmann::json::object(), "frame<f32>", "in", {"flux"},
                          {referenceFrame(std::vector<float>(5, 1.0f), 0, 8), referenceFrame(std::vector<float>(6, 1.0f), 8, 8)});
    REQUIRE(run.outcome.failures.size() == 1);
    CHECK_THAT(run.outcome.failures[0], Catch::Contains("6 values") && Catch::Contains("one of 5"));
}
