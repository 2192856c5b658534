// An in-process plugin whose activate throws disables its node only, as it does in a sandbox
// (writing-plugins.md §2: "Throwing from a hook disables the node ...; the rest of the graph runs
// on"): exit 2, the healthy branch complete, the report written, and the
// hook named as a sandboxed node names it ("(in the activate hook)"). A constructor that fails is
// named as failing in its create hook, with its node, in-process and sandboxed alike.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron::test;
using Catch::Matchers::Contains;

TEST_CASE("in-process, a plugin whose activate throws disables its node only; the rest runs to the end", "[plugins][start]") {
    ScratchFolder folder("activate-throws-in-process");
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    const auto healthy = folder.path() / "healthy.jsonl";
    const auto report = folder.path() / "report.json";
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "healthy"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", healthy.string()}}}},
                   {{"id", "faulty"}, {"type", "faults.in_hook"}, {"params", {{"hook", "activate"}, {"how", "throw"}}}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "healthy.in"}}, {{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto graphPath = folder.path() / "activate.isograph.json";
    std::ofstream(graphPath) << graph.dump(2);

    const CommandResult r = runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(ISOCHRON_RUN_BINARY),
                                       graphPath.string() + " --plugin " + faults + " --report " + report.string());
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Contains("error: node 'faulty': deliberate failure in activate (in the activate hook) [plugin " + faults + "]"));
    REQUIRE(std::filesystem::exists(report));
    std::ifstream in(report);
    const nlohmann::json json = nlohmann::json::parse(in);
    CHECK(json["completed"] == true);
    CHECK(json["nodes"]["healthy"]["items_in"] == 40);  // 1 s of 200-sample blocks at 8 kHz: every one reached it
    CHECK(json["nodes"]["after"]["items_in"] == 0);
    CHECK_THAT(json["nodes"]["faulty"]["failure"].get<std::string>(), Contains("deliberate failure in activate (in the activate hook)"));
    std::ifstream lines(healthy);
    int count = 0;
    for (std::string line; std::getline(lines, line);) ++count;
    CHECK(count == 40);
}

namespace {

// A tone split to a healthy sink and to a node of `type` before another sink; the graph file's path.
std::string constructorGraph(const std::filesystem::path& folder, const std::string& type) {
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "healthy"}, {"type", "io.null_sink"}},
                   {{"id", "faulty"}, {"type", type}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "healthy.in"}}, {{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto path = folder / (type + ".isograph.json");
    std::ofstream(path) << graph.dump(2);
    return path.string();
}

#ifdef ISOCHRON_SANITIZED
// The sandbox's child must die of SIGSEGV as in a release build, not of ASan's abort (see plugin_sandbox_test.cpp).
constexpr const char* kSanitizerOptions = "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:handle_segv=0 ";
#else
constexpr const char* kSanitizerOptions = "";
#endif

const std::string kRunner = "env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(ISOCHRON_RUN_BINARY);

}  // namespace

TEST_CASE("in-process, a plugin constructor that throws disables its node only, and one that crashes or exits is named with its node", "[plugins][start]") {
    ScratchFolder folder("constructor-in-process");
    const std::string plugin = std::filesystem::canonical(fixturePlugin("constructor_faults")).string();
    const CommandResult throws = runProgram(kRunner, constructorGraph(folder.path(), "constructor_faults.throws") + " --plugin " + plugin);
    INFO(throws.output);
    CHECK(throws.status == 2);
    CHECK_THAT(throws.output, Contains("error: node 'faulty': deliberate failure in the constructor (in the create hook) [plugin " + plugin + "]"));
    const CommandResult crashes = runProgram(kRunner, constructorGraph(folder.path(), "constructor_faults.crashes") + " --plugin " + plugin);
    INFO(crashes.output);
    CHECK(crashes.status != 0);
    CHECK_THAT(crashes.output, Contains("isochron: node 'faulty' (plugin " + plugin + ") crashed in its create hook (Segmentation fault)"));
    const CommandResult exits = runProgram(kRunner, constructorGraph(folder.path(), "constructor_faults.exits") + " --plugin " + plugin);
    INFO(exits.output);
    CHECK(exits.status == 2);
    CHECK_THAT(exits.output, Contains("isochron: node 'faulty' (plugin " + plugin + ") called exit(3) in its create hook"));
}

TEST_CASE("sandboxed, a plugin constructor that throws, crashes or exits is named as failing in its create hook, with its node; the rest runs on",
          "[plugins][start][sandbox]") {
    ScratchFolder folder("constructor-sandboxed");
    const std::string plugin = std::filesystem::canonical(fixturePlugin("constructor_faults")).string();
    for (const auto& [type, failure] : {std::pair<std::string, std::string>{"constructor_faults.throws", "deliberate failure in the constructor (in the create hook)"},
                                        {"constructor_faults.crashes", "its sandboxed process died of Segmentation fault (signal 11) in its create hook"},
                                        {"constructor_faults.exits", "its sandboxed process exited with status 3 in its create hook"}}) {
        INFO(type);
        const auto report = folder.path() / "report.json";
        const CommandResult r = runProgram(kSanitizerOptions + kRunner, constructorGraph(folder.path(), type) + " --plugin " + plugin +
                                                                            " --sandbox --report " + report.string());
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK_THAT(r.output, Contains("error: node 'faulty': " + failure + " [plugin " + plugin + "]"));
        const nlohmann::json json = nlohmann::json::parse(std::ifstream(report));
        CHECK(json["nodes"]["healthy"]["items_in"] == 40);
        CHECK_THAT(json["failures"][0].get<std::string>(), Contains("node 'faulty': " + failure));
    }
}
TEST_CASE("a run refused while its nodes start leaves no empty JSON-lines or CSV file, new or partial", "[plugins][start]") {
    ScratchFolder folder("refused-start-files");
    const auto events = folder.path() / "events.jsonl";
    std::ofstream(events) << "not an event line\n";  // read when its node starts: the run is refused then
    const auto fresh = folder.path() / "fresh.jsonl";
    const auto replaced = folder.path() / "old.csv";
    std::ofstream(replaced) << "OLD\n";
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "events"}, {"type", "io.jsonl_event_source"}, {"params", {{"path", events.string()}}}},
                   {{"id", "drop"}, {"type", "io.null_sink"}},
                   {{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "lines"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", fresh.string()}}}},
                   {{"id", "meter"}, {"type", "level.rms_meter"}, {"params", {{"interval", 200}}}},
                   {{"id", "levels"}, {"type", "io.csv_sink"}, {"params", {{"path", replaced.string()}}}}}},
        {"edges", {{{"from", "events.out"}, {"to", "drop.in"}},
                   {{"from", "tone.out"}, {"to", "lines.in"}},
                   {{"from", "tone.out"}, {"to", "meter.in"}},
                   {{"from", "meter.level"}, {"to", "levels.in0"}}}}};
    const auto graphPath = folder.path() / "refused.isograph.json";
    std::ofstream(graphPath) << graph.dump(2);
    const CommandResult r = runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(ISOCHRON_RUN_BINARY), graphPath.string());
    INFO(r.output);
    REQUIRE(r.status == 1);
    CHECK_THAT(r.output, Contains("node 'events'") && Contains("cannot start"));
    CHECK_FALSE(std::filesystem::exists(fresh));
    int files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder.path())) ++files;
    CHECK(files == 3);  // events.jsonl, old.csv (untouched) and the graph: no partial file beside old.csv
    std::ifstream old(replaced);
    std::string line;
    std::getline(old, line);
    CHECK(line == "OLD");
}
