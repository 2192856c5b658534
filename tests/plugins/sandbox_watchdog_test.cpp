// The sandbox watchdog a run picks from its graph (engine/plugins/sandbox_watchdog.h): a hung
// sandboxed plugin holds every branch until the watchdog, so in a graph with a live source (paced,
// or capturing) the default watchdog is short enough that the source drops nothing and the healthy
// branch is complete; a longer --watchdog is warned about at start, naming the source; an unpaced
// graph keeps 10 s.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/plugins/sandbox_watchdog.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron;
using namespace isochron::test;
using Catch::Matchers::Contains;

namespace {

#ifdef ISOCHRON_SANITIZED
constexpr const char* kSanitizerOptions = "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:handle_segv=0 ";
#else
constexpr const char* kSanitizerOptions = "";
#endif

CommandResult runRunner(const std::string& arguments) {
    return runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(kSanitizerOptions) + ISOCHRON_RUN_BINARY,
                      arguments);
}

// A tone split to a healthy sound file and to faults.hang (hangs on its 3rd segment) before a null
// sink; `toneParams` added to the tone's (8 kHz, blocks of 200).
nlohmann::json hangGraph(const std::filesystem::path& folder, const nlohmann::json& toneParams) {
    nlohmann::json tone = {{"rate", 8000}, {"block", 200}};
    tone.update(toneParams);
    return {{"format", "isochron-graph/1"},
            {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", tone}},
                       {{"id", "healthy"}, {"type", "io.wav_file_sink"}, {"params", {{"path", (folder / "healthy.wav").string()}}}},
                       {{"id", "faulty"}, {"type", "faults.hang"}},
                       {{"id", "after"}, {"type", "io.null_sink"}}}},
            {"edges", {{{"from", "tone.out"}, {"to", "healthy.in0"}}, {{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
}

std::filesystem::path writeGraph(const std::filesystem::path& folder, const nlohmann::json& graph) {
    const auto path = folder / "graph.isograph.json";
    std::ofstream(path) << graph.dump(2);
    return path;
}

// A tone (`toneParams`) into a null sink.
nlohmann::json toneGraph(const nlohmann::json& toneParams) {
    return {{"format", "isochron-graph/1"},
            {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", toneParams}}, {{"id", "sink"}, {"type", "io.null_sink"}}}},
            {"edges", {{{"from", "tone.out"}, {"to", "sink.in"}}}}};
}

ValidatedGraph validated(const nlohmann::json& graph) { return validateGraph(parseGraph(graph.dump()), builtinRegistry()); }

nlohmann::json readJson(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("a paced graph's default watchdog keeps its healthy branch complete", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("paced-hang");
    // max_lag 8 s: the watchdog becomes 4 s, leaving 4 s for a busy machine to catch up; the 10 s
    // watchdog of an unpaced graph would make the tone drop 8 s.
    const auto graph = writeGraph(folder.path(), hangGraph(folder.path(), {{"pace", 1}, {"max_lag", 8}, {"duration", 3}}));
    const auto report = folder.path() / "report.json";
    const CommandResult r = runRunner(graph.string() + " --plugin " + faults + " --sandbox --report " + report.string());
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("note: a call into a sandboxed plugin may take 4 s (the watchdog, from the live source node 'tone' max_lag 8 s"));
    // The hook named is the one that hung: in a paced graph process calls carry the progress before them
    // (tryout17c: "in its progress hook").
    CHECK_THAT(r.output, Contains("error: node 'faulty': its sandboxed process did not answer within 4000 ms in its process hook"));
    CHECK_THAT(r.output, !Contains("dropped"));
    const nlohmann::json json = readJson(report);
    INFO(json["nodes"]["tone"].dump());
    CHECK(json["completed"] == true);
    CHECK(json["outputs"]["healthy"]["samples"] == 3 * 8000);  // every sample reached the healthy branch
    CHECK_FALSE(json["nodes"]["tone"].contains("warning_count"));  // no "fell more than max_lag behind"
    CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains("the watchdog killed it"));
}

TEST_CASE("a sandboxed crash in process in a paced graph is named in the process hook", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("paced-crash");
    nlohmann::json graph = hangGraph(folder.path(), {{"pace", 1}, {"duration", 1}});
    graph["nodes"][2]["type"] = "faults.segfault";
    const auto report = folder.path() / "report.json";
    const CommandResult r = runRunner(writeGraph(folder.path(), graph).string() + " --plugin " + faults + " --sandbox --report " + report.string());
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("error: node 'faulty': its sandboxed process died of Segmentation fault (signal 11) in its process hook"));
    const nlohmann::json json = readJson(report);
    CHECK(json["outputs"]["healthy"]["samples"] == 8000);
}

TEST_CASE("a paced graph's short watchdog does not time activate and deactivate, which run while no source streams", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("paced-slow-setup");
    const std::string hook = GENERATE(std::string("activate"), std::string("deactivate"));
    INFO("1.5 s in " << hook);
    nlohmann::json graph = hangGraph(folder.path(), {{"pace", 1}, {"duration", 1}});  // max_lag 2 s: a 1 s watchdog
    graph["nodes"][2] = {{"id", "faulty"}, {"type", "faults.in_hook"}, {"params", {{"hook", hook}, {"how", "slow"}}}};
    const auto report = folder.path() / "report.json";
    const CommandResult r = runRunner(writeGraph(folder.path(), graph).string() + " --plugin " + faults + " --sandbox --report " + report.string());
    INFO(r.output);
    CHECK_THAT(r.output, Contains("may take 1 s (the watchdog, from the live source node 'tone' max_lag 2 s") &&
                             Contains("activate and deactivate, while no source streams, 10 s"));
    CHECK(r.status == 0);
    const nlohmann::json json = readJson(report);
    CHECK(json["completed"] == true);
    CHECK(json["failures"].empty());
    CHECK(json["outputs"]["healthy"]["samples"] == 8000);
}

TEST_CASE("a --watchdog too long for a live source is warned about", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("watchdog-warning");
    const auto graph = writeGraph(folder.path(), hangGraph(folder.path(), {{"pace", 1}, {"duration", 3}}));
    const CommandResult longer = runRunner(graph.string() + " --plugin " + faults + " --sandbox --watchdog 10 --check");
    INFO(longer.output);
    CHECK(longer.status == 0);
    CHECK_THAT(longer.output, Contains("warning: a hung sandboxed plugin would make 'tone' drop data: the watchdog (10 s) holds the whole graph that long, "
                                       "more than half of node 'tone' max_lag 2 s; give --watchdog 1 or less, or raise 'tone' max_lag"));
    const CommandResult shorter = runRunner(graph.string() + " --plugin " + faults + " --sandbox --watchdog 1 --check");
    INFO(shorter.output);
    CHECK(shorter.status == 0);
    CHECK_THAT(shorter.output, !Contains("drop data"));
}

TEST_CASE("the default sandbox watchdog follows the live sources' headroom", "[plugins][sandbox]") {
    SECTION("unpaced: 10 s, and a note saying why") {
        const SandboxWatchdogChoice choice = chooseSandboxWatchdog(validated(toneGraph({{"duration", 1}})), std::nullopt);
        CHECK(choice.watchdog == kUnpacedSandboxWatchdog);
        CHECK_FALSE(choice.tightest);
        CHECK(choice.warning.empty());
        CHECK_THAT(choice.note, Contains("10 s") && Contains("no live source"));
    }
    SECTION("paced: half of max_lag") {
        const SandboxWatchdogChoice choice = chooseSandboxWatchdog(validated(toneGraph({{"pace", 1}, {"max_lag", 3}})), std::nullopt);
        CHECK(choice.watchdog == std::chrono::milliseconds(1500));
        REQUIRE(choice.tightest);
        CHECK(choice.tightest->node == "tone");
        CHECK(choice.tightest->parameter == "max_lag");
        CHECK(choice.warning.empty());
    }
    SECTION("a max_lag too short for any watchdog: the floor, and a warning saying what to raise") {
        const SandboxWatchdogChoice choice = chooseSandboxWatchdog(validated(toneGraph({{"pace", 1}, {"max_lag", 0.1}})), std::nullopt);
        CHECK(choice.watchdog == kSandboxWatchdogFloor);
        CHECK_THAT(choice.warning, Contains("would make 'tone' drop data") && Contains("raise 'tone' max_lag to 0.5 s or more"));
    }
    SECTION("a capture source: half of its buffer") {
        nlohmann::json graph = toneGraph({{"pace", 1}});
        graph["nodes"].push_back({{"id", "mic"}, {"type", "capture.audio_input"}, {"params", {{"buffer", 1}}}});
        graph["nodes"].push_back({{"id", "mic_sink"}, {"type", "io.null_sink"}});
        graph["edges"].push_back({{"from", "mic.out0"}, {"to", "mic_sink.in"}});
        const SandboxWatchdogChoice choice = chooseSandboxWatchdog(validated(graph), std::nullopt);
        CHECK(choice.watchdog == std::chrono::milliseconds(500));
        REQUIRE(choice.tightest);
        CHECK(choice.tightest->node == "mic");
        CHECK(choice.tightest->parameter == "buffer");
    }
    SECTION("a --watchdog given is kept, and warned about when longer than half the headroom") {
        const ValidatedGraph graph = validated(toneGraph({{"pace", 1}}));
        const SandboxWatchdogChoice longer = chooseSandboxWatchdog(graph, std::chrono::milliseconds(3000));
        CHECK(longer.watchdog == std::chrono::milliseconds(3000));
        CHECK_THAT(longer.warning, Contains("give --watchdog 1 or less"));
        CHECK(chooseSandboxWatchdog(graph, std::chrono::milliseconds(800)).warning.empty());
    }
}

TEST_CASE("every paced built-in source has a max_lag or a capture buffer", "[plugins][sandbox]") {
    for (const OperatorDescriptor* d : builtinRegistry().all()) {
        if (!d->findParam("pace")) continue;
        INFO(d->typeName);
        CHECK((d->findParam("max_lag") || (d->category == "capture" && d->findParam("buffer"))));
    }
}
