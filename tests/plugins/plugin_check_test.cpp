// isochron-plugin-check end to end: the example plugins pass; every flaw of the flawed fixture is
// reported under its operator (split dependence, allocation, exceptions, a crash, missing docs); a
// plugin that hangs, crashes or aborts gets a verdict per operator and the checker ends.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

using Catch::Matchers::Contains;

namespace {

using Result = isochron::test::CommandResult;

Result runChecker(const std::string& arguments) {
    return isochron::test::runProgram(ISOCHRON_PLUGIN_CHECK_BINARY, arguments);
}

// The checker under coreutils' timeout: a checker that hangs ends with status 124 instead of
// hanging the test.
Result runCheckerBounded(int boundSeconds, const std::string& arguments) {
    return isochron::test::runProgram("timeout", "-k 5 " + std::to_string(boundSeconds) + " " ISOCHRON_PLUGIN_CHECK_BINARY " " + arguments);
}

// The report's lines under each operator heading ("  type"), joined.
std::map<std::string, std::string> sectionsByOperator(const std::string& output) {
    std::map<std::string, std::string> sections;
    std::string current;
    std::size_t start = 0;
    while (start < output.size()) {
        const std::size_t end = std::min(output.find('\n', start), output.size());
        const std::string line = output.substr(start, end - start);
        if (line.starts_with("  ") && !line.starts_with("   ") && line.find(' ', 2) == std::string::npos) current = line.substr(2);
        else if (!current.empty()) sections[current] += line + "\n";
        start = end + 1;
    }
    return sections;
}

std::filesystem::path plugin(const char* folder, const char* name) { return std::filesystem::path(folder) / (std::string(name) + ".so"); }

}  // namespace

TEST_CASE("isochron-plugin-check passes the example plugins", "[plugins][check]") {
    for (const char* name : {"biquad", "zero_crossing_rate", "tones"}) {
        const Result r = runChecker("--samples 8192 --random-splits 2 " + plugin(ISOCHRON_EXAMPLE_PLUGIN_DIR, name).string());
        INFO(r.output);
        CHECK(r.status == 0);
        CHECK_THAT(r.output, Contains("the manifest matches the binary") && Contains("OK: no problems"));
        CHECK(r.output.find("problem:") == std::string::npos);
    }
    // tones.frequency consumes custom items: the checker makes them with tones.detect.
    const Result tones = runChecker("--samples 8192 " + plugin(ISOCHRON_EXAMPLE_PLUGIN_DIR, "tones").string());
    CHECK(sectionsByOperator(tones.output)["tones.frequency"].find("not run") == std::string::npos);
}

TEST_CASE("isochron-plugin-check reports each flaw under its operator", "[plugins][check]") {
    const Result r = runChecker("--samples 8192 --rates 8000,48000 " + plugin(ISOCHRON_FIXTURE_DIR, "flawed").string());
    INFO(r.output);
    CHECK(r.status == 2);
    auto sections = sectionsByOperator(r.output);
    CHECK_THAT(sections["flawed.segment_mean"], Contains("problem: 8000 Hz, segments of 1, output 'out' depends on the split"));
    CHECK_THAT(sections["flawed.allocating"], Contains("system allocations while processing"));
    // The advice speaks the SDK's names, not the engine's.
    CHECK_THAT(sections["flawed.allocating"], Contains("use allocate<T>() for output samples and prepare buffers in activate()"));
    CHECK(sections["flawed.allocating"].find("depends on the split") == std::string::npos);
    CHECK_THAT(sections["flawed.throws"], Contains("problem: 8000 Hz, segments of 1: node 'flawed.throws': deliberate failure on segment 10 (in process)"));
    CHECK_THAT(sections["flawed.writes_input"], Contains("its process hook wrote into the input segment it was given"));
    CHECK(sections["flawed.segment_mean"].find("wrote into the input") == std::string::npos);
    CHECK_THAT(sections["flawed.throws_anything"], Contains("threw something that is not a std::exception"));
    CHECK_THAT(sections["flawed.crashes"], Contains("problem: 8000 Hz, segments of 1: crashed (Segmentation fault) in node "
                                                    "'flawed.crashes' (plugin") && Contains("in its process hook"));
    CHECK_THAT(sections["flawed.undocumented"], Contains("input 'in' has no doc") && Contains("parameter 'size' has no doc") &&
                                                    Contains("parameter 'size' has no range"));
    CHECK(sections["flawed.undocumented"].find("system allocations") == std::string::npos);
}

TEST_CASE("isochron-plugin-check reports a plugin the host refuses", "[plugins][check]") {
    const Result refused = runChecker(plugin(ISOCHRON_FIXTURE_DIR, "refused_entry").string());
    CHECK(refused.status == 2);
    CHECK_THAT(refused.output, Contains("problem: refused: plugin") && Contains("exports no isochron_plugin_entry"));
}

TEST_CASE("isochron-plugin-check ends with a verdict on a plugin that hangs, crashes, aborts or calls exit()", "[plugins][check]") {
    // Each faults operator fails on its 3rd segment, so in the run with segments of 1 sample.
    // faults.hang sleeps forever there; faults.slow takes 50 ms a segment, far more than 5 s for
    // 8192 segments. Each must cost about --timeout, far below the bound.
    const Result r = runCheckerBounded(120, "--timeout 5 --samples 8192 --rates 8000 --random-splits 0 " + plugin(ISOCHRON_FIXTURE_DIR, "faults").string());
    INFO(r.output);
    REQUIRE(r.status == 2);
    auto sections = sectionsByOperator(r.output);
    CHECK_THAT(sections["faults.hang"], Contains("problem: 8000 Hz, segments of 1: did not finish within 5 s; node 'faults.hang' (plugin") &&
                                            Contains("in its process hook had not returned"));
    CHECK_THAT(sections["faults.slow"], Contains("did not finish within 5 s; node 'faults.slow' (plugin"));
    CHECK_THAT(sections["faults.segfault"], Contains("problem: 8000 Hz, segments of 1: crashed (Segmentation fault) in node 'faults.segfault' (plugin") &&
                                                Contains("in its process hook"));
    CHECK_THAT(sections["faults.segfault_while_writing"], Contains("crashed (Segmentation fault) in node 'faults.segfault_while_writing' (plugin"));
    CHECK_THAT(sections["faults.abort"], Contains("problem: 8000 Hz, segments of 1: crashed (Aborted) in node 'faults.abort' (plugin") &&
                                             Contains("in its process hook"));
    // exit(0) ended the check process as if the operator had passed.
    CHECK_THAT(sections["faults.exits"], Contains("problem: 8000 Hz, ") && Contains(": node 'faults.exits' (plugin") &&
                                             Contains("in its process hook called exit(0); a plugin must not end the process"));
    // Every operator, those after the hung one included, was checked to the end.
    for (const char* type : {"faults.segfault", "faults.hang", "faults.abort", "faults.segfault_while_writing", "faults.writes_input", "faults.slow"}) {
        CHECK_THAT(sections[type], Contains(" runs, "));
    }
}

TEST_CASE("isochron-plugin-check refuses a time limit it cannot keep", "[plugins][check]") {
    for (const char* limit : {"0", "-3", "soon"}) {
        const Result r = runChecker(std::string("--timeout ") + limit + " " + plugin(ISOCHRON_FIXTURE_DIR, "faults").string());
        CHECK(r.status == 1);
        CHECK_THAT(r.output, Contains(std::string("--timeout needs whole seconds from 1 to 86400, not '") + limit + "'"));
    }
}
