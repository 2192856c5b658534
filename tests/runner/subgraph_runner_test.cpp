// isochron-run on a graph that uses a subgraph: exactly the same output as the same graph written
// flat, under several schedulers; the subgraph's relative paths are resolved from its own folder.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/test_files.h"
#include "tests/support/run_command.h"

using isochron::test::readText;

namespace {

namespace fs = std::filesystem;

// The bundled recording, unpaced, into a silence detector whose ranges a JSONL sink writes.
std::string sourceNode() {
    const fs::path recording = fs::path(ISOCHRON_SOURCE_DIR) / "samples/data/counting-speech-16k.wav";
    return R"({"id": "source", "type": "io.audio_file_source", "params": {"path": ")" + recording.string() +
           R"(", "block": 256, "pace": 0, "progress_interval": 800}})";
}

}  // namespace

TEST_CASE("a graph using a subgraph writes exactly what the same graph written flat writes", "[runner][subgraph]") {
    const fs::path folder = fs::temp_directory_path() / ("isochron-runner-subgraph-test-" + std::to_string(getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder / "parts");
    // Inside the subgraph the threshold is 0.5 (nothing is voiced); the graph using it exposes and sets 0.01.
    std::ofstream(folder / "parts/detect.isograph.json") << R"({"format": "isochron-graph/1",
      "interface": {"inputs": {"audio": "voice.in"}, "params": {"threshold": "voice.threshold"}},
      "nodes": [{"id": "voice", "type": "detect.silence_detector", "params": {"window": 400, "threshold": 0.5, "hangover": 1}},
                {"id": "ranges", "type": "io.jsonl_event_sink", "params": {"path": "ranges.jsonl"}}],
      "edges": [{"from": "voice.ranges", "to": "ranges.in"}]})";
    std::ofstream(folder / "grouped.isograph.json") << R"({"format": "isochron-graph/1", "nodes": [)" + sourceNode() + R"(,
      {"id": "detector", "subgraph": "parts/detect.isograph.json", "params": {"threshold": 0.01}}],
      "edges": [{"from": "source.out0", "to": "detector.audio"}]})";
    std::ofstream(folder / "flat.isograph.json") << R"({"format": "isochron-graph/1", "nodes": [)" + sourceNode() + R"(,
      {"id": "voice", "type": "detect.silence_detector", "params": {"window": 400, "threshold": 0.01, "hangover": 1}},
      {"id": "ranges", "type": "io.jsonl_event_sink", "params": {"path": "flat-ranges.jsonl"}}],
      "edges": [{"from": "source.out0", "to": "voice.in"}, {"from": "voice.ranges", "to": "ranges.in"}]})";

    for (const std::string scheduler : {"df", "fifo-slice:slice_us=28,burst=4", "qos", "superbox-ml"}) {
        INFO("scheduler " << scheduler);
        fs::remove(folder / "parts/ranges.jsonl");
        fs::remove(folder / "flat-ranges.jsonl");
        const auto flat = isochron::test::runProgram(ISOCHRON_RUN_BINARY, (folder / "flat.isograph.json").string() + " --scheduler " + scheduler +
                                                                              " --report " + (folder / "flat.json").string());
        INFO(flat.output);
        REQUIRE(flat.status == 0);
        const auto grouped = isochron::test::runProgram(ISOCHRON_RUN_BINARY, (folder / "grouped.isograph.json").string() + " --scheduler " +
                                                                                 scheduler + " --report " + (folder / "grouped.json").string());
        INFO(grouped.output);
        REQUIRE(grouped.status == 0);
        const std::string expected = readText(folder / "flat-ranges.jsonl");
        CHECK(std::count(expected.begin(), expected.end(), '\n') >= 3);  // the recording counts several words
        CHECK(readText(folder / "parts/ranges.jsonl") == expected);
        const auto flatReport = nlohmann::json::parse(readText(folder / "flat.json"));
        const auto groupedReport = nlohmann::json::parse(readText(folder / "grouped.json"));
        CHECK(groupedReport["outputs"]["detector/ranges"]["items"] == flatReport["outputs"]["ranges"]["items"]);
    }

    // An exposed parameter is set from the command line like any other.
    fs::remove(folder / "parts/ranges.jsonl");
    const auto silent = isochron::test::runProgram(ISOCHRON_RUN_BINARY, (folder / "grouped.isograph.json").string() + " --set detector.threshold=0.9");
    INFO(silent.output);
    REQUIRE(silent.status == 0);
    CHECK(readText(folder / "parts/ranges.jsonl").empty());
    fs::remove_all(folder);
}
