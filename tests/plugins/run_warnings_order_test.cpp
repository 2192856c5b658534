// isochron-run prints the warnings that came during the run (a node's at finish or deactivate)
// before the summary table, so the table is the run's last word and no warning hides under it.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron::test;
using Catch::Matchers::Contains;

TEST_CASE("isochron-run prints the run's warnings before its summary", "[plugins][sandbox]") {
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    ScratchFolder folder("warnings-order");
    // The plugin's activate throws (sandboxed: its node is disabled), so the tone, whose items could
    // reach no output, warns as it stops early.
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "faulty"}, {"type", "faults.in_hook"}, {"params", {{"hook", "activate"}, {"how", "throw"}}}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "faulty.in"}}, {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto path = folder.path() / "graph.isograph.json";
    std::ofstream(path) << graph.dump(2);
    const CommandResult r = runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(ISOCHRON_RUN_BINARY),
                                       path.string() + " --plugin " + faults + " --sandbox");
    INFO(r.output);
    CHECK(r.status == 2);
    const std::size_t warning = r.output.find("warning: node 'tone': stopped early");
    const std::size_t table = r.output.find("scheduler df: completed after");
    REQUIRE(warning != std::string::npos);
    REQUIRE(table != std::string::npos);
    CHECK(warning < table);
}
