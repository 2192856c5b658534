// What an in-process plugin's exit() leaves on disk: writing-plugins.md §4 promises every output cut
// short stays under its `.partial` name, never under the final one. Text sinks write a new file under
// its own name (a reader can follow it), so the exit handler must move them aside; sound sinks grow
// aside anyway.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron::test;
using Catch::Matchers::Contains;

namespace {

/// The names of the files in `folder`.
std::vector<std::string> fileNames(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename().string());
    return names;
}

}  // namespace

TEST_CASE("in-process, a plugin calling exit() leaves the JSON-lines and CSV outputs under their partial names, not their final ones",
          "[plugins][exit]") {
    ScratchFolder folder("exit-text-outputs");
    const std::string faults = std::filesystem::canonical(fixturePlugin("faults")).string();
    const auto jsonl = folder.path() / "healthy.jsonl";
    const auto csv = folder.path() / "levels.csv";
    const nlohmann::json graph = {
        {"format", "isochron-graph/1"},
        {"nodes", {{{"id", "tone"}, {"type", "generators.signal_generator"}, {"params", {{"rate", 8000}, {"duration", 1}, {"block", 200}}}},
                   {{"id", "healthy"}, {"type", "io.jsonl_event_sink"}, {"params", {{"path", jsonl.string()}}}},
                   {{"id", "meter"}, {"type", "level.rms_meter"}, {"params", {{"interval", 200}}}},
                   {{"id", "levels"}, {"type", "io.csv_sink"}, {"params", {{"path", csv.string()}}}},
                   {{"id", "faulty"}, {"type", "faults.exits"}},
                   {{"id", "after"}, {"type", "io.null_sink"}}}},
        {"edges", {{{"from", "tone.out"}, {"to", "healthy.in"}},
                   {{"from", "tone.out"}, {"to", "meter.in"}},
                   {{"from", "meter.level"}, {"to", "levels.in0"}},
                   {{"from", "tone.out"}, {"to", "faulty.in"}},
                   {{"from", "faulty.out"}, {"to", "after.in"}}}}};
    const auto graphPath = folder.path() / "exit.isograph.json";
    std::ofstream(graphPath) << graph.dump(2);

    const CommandResult r = runProgram("env XDG_DATA_HOME=/nonexistent-isochron-test ISOCHRON_PLUGIN_PATH= " + std::string(ISOCHRON_RUN_BINARY),
                                       graphPath.string() + " --plugin " + faults);
    INFO(r.output);
    REQUIRE(r.status == 2);
    CHECK_THAT(r.output, Contains("called exit(0) in its process hook: the run cannot go on"));
    const std::vector<std::string> names = fileNames(folder.path());
    INFO(nlohmann::json(names).dump());
    // A later step reading healthy.jsonl would take the cut-short file for a complete one.
    CHECK_FALSE(std::filesystem::exists(jsonl));
    CHECK_FALSE(std::filesystem::exists(csv));
    const auto partialOf = [&](const std::string& name) {
        return std::count_if(names.begin(), names.end(), [&](const std::string& file) {
            return file.rfind(name + ".", 0) == 0 && file.size() > name.size() + 8 && file.ends_with(".partial");
        });
    };
    CHECK(partialOf("healthy.jsonl") == 1);
    CHECK(partialOf("levels.csv") == 1);
}
