// --check refuses a sound file sink's output the run would refuse at its start: standard output
// ('-' or /dev/stdout) into a pipe. Before, --check said "valid" and the run refused.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.h"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

TEST_CASE("--check refuses a sound file sink writing standard output into a pipe, as the run does", "[runner][faults]") {
    const fs::path graph = fs::temp_directory_path() / ("isochron-check-sound-output-" + std::to_string(getpid()) + ".isograph.json");
    std::ofstream(graph) << R"({"format": "isochron-graph/1", "nodes": [
      {"id": "gen", "type": "generators.signal_generator", "params": {"duration": 0.1}},
      {"id": "out", "type": "io.wav_file_sink", "params": {"path": "-"}}],
      "edges": [{"from": "gen.out", "to": "out.in0"}]})";
    // runProgram reads standard output through a pipe.
    for (const char* path : {"-", "/dev/stdout"}) {
        INFO(path);
        const std::string set = std::string(" --set out.path=") + path;
        const isochron::test::CommandResult check = isochron::test::runProgram(ISOCHRON_RUN_BINARY, graph.string() + set + " --check");
        const isochron::test::CommandResult run = isochron::test::runProgram(ISOCHRON_RUN_BINARY, graph.string() + set + " --quiet");
        INFO(check.output << "\n---\n" << run.output);
        CHECK(run.status != 0);
        CHECK(check.status == 1);
        CHECK_THAT(run.output, Contains("is a pipe or terminal here"));
        CHECK_THAT(check.output, Contains("node 'out'") && Contains("is a pipe or terminal here"));
        CHECK_THAT(check.output, !Contains("valid ("));
    }
    fs::remove(graph);
}
