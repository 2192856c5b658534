// The multi-array fusion sample end to end: two arrays' recordings (bundled, simulated in one room)
// are localized, sent over links with 2 s of skew and 200 ms of jitter, band-joined and
// triangulated; every simulated source comes out once, within 0.5 m of where it was. The in-order
// baseline gives the same positions.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "tests/support/run_command.h"

using namespace isochron::test;

TEST_CASE("the fusion sample places every simulated source within 0.5 m despite skewed, jittery links", "[runner][fusion][oop]") {
    const std::filesystem::path samples = std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples";
    const nlohmann::json truth = nlohmann::json::parse(std::ifstream(samples / "data" / "fusion-array-a.truth.json"));
    for (const char* graph : {"fusion-two-arrays.isograph.json", "fusion-two-arrays-in-order.isograph.json"}) {
        INFO(graph);
        const auto positionsPath = std::filesystem::temp_directory_path() / ("isochron-fusion-" + std::to_string(getpid()) + ".jsonl");
        const CommandResult run = runProgram(ISOCHRON_RUN_BINARY, (samples / graph).string() + " --set positions.path=" + positionsPath.string() + " --quiet");
        INFO(run.output);
        REQUIRE(run.status == 0);
        std::vector<nlohmann::json> positions;
        std::ifstream in(positionsPath);
        for (std::string line; std::getline(in, line);) positions.push_back(nlohmann::json::parse(line));
        std::filesystem::remove(positionsPath);
        REQUIRE(positions.size() == truth["events"].size());
        for (const auto& source : truth["events"]) {
            INFO("source at " << source["x_m"] << ", " << source["y_m"] << " heard at " << source["t_start"] << " s");
            int found = 0;
            for (const auto& p : positions) {
                if (std::abs(p["t_start"].get<double>() - source["t_start"].get<double>()) > 0.1) continue;
                ++found;
                CHECK(std::hypot(p["x_m"].get<double>() - source["x_m"].get<double>(), p["y_m"].get<double>() - source["y_m"].get<double>()) < 0.5);
            }
            CHECK(found == 1);
        }
    }
}
