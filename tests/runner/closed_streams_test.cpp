// isochron-run started with standard error closed (`2>&-`): its messages must not land in a file
// it opened later. Before, the sample pool's shared memory took number 2, a node's error message
// was written into the pool and the run died of SIGSEGV with no report.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/test_files.h"

namespace fs = std::filesystem;

TEST_CASE("standard error closed: a failing sink ends the run with status 2 and the report names it", "[runner][faults]") {
    const fs::path folder = fs::temp_directory_path() / ("isochron-closed-streams-" + std::to_string(getpid()));
    fs::create_directories(folder);
    const fs::path graph = folder / "full.isograph.json";
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 1}},
      {"id": "w", "type": "io.wav_file_sink", "params": {"path": "/dev/full"}},
      {"id": "n", "type": "io.null_sink"}],
      "edges": [{"from": "gen.out", "to": "w.in0"}, {"from": "gen.out", "to": "n.in"}]})";
    const fs::path report = folder / "report.json";
    for (const char* streams : {"2>&-", "2>&- >&-", "2>&- <&-"}) {
        INFO(streams);
        fs::remove(report);
        const std::string command = std::string(ISOCHRON_RUN_BINARY) + " " + graph.string() + " --quiet --scheduler df --report " +
                                    report.string() + " " + streams;
        const int raw = std::system(command.c_str());
        REQUIRE(WIFEXITED(raw));
        CHECK(WEXITSTATUS(raw) == 2);
        REQUIRE(fs::exists(report));
        const nlohmann::json json = nlohmann::json::parse(isochron::test::readText(report));
        REQUIRE(json["failures"].size() == 1);
        CHECK(json["failures"][0].get<std::string>().starts_with("node 'w': cannot write '/dev/full'"));
        CHECK(json["outputs"]["n"]["samples"].get<long>() > 0);
    }
    fs::remove_all(folder);
}
