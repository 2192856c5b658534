// isochron-plugin-check end to end: the example plugins pass; every flaw of the flawed fixture is
// reported under its operator (split dependence, allocation, exceptions, a crash, missing docs).
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
    CHECK(sections["flawed.allocating"].find("depends on the split") == std::string::npos);
    CHECK_THAT(sections["flawed.throws"], Contains("problem: 8000 Hz, segments of 1: node 'subject': deliberate failure on segment 10 (in process)"));
    CHECK_THAT(sections["flawed.throws_anything"], Contains("threw something that is not a std::exception"));
    CHECK_THAT(sections["flawed.crashes"], Contains("problem: 8000 Hz, segments of 1: crashed (Segmentation fault)"));
    CHECK_THAT(sections["flawed.undocumented"], Contains("input 'in' has no doc") && Contains("parameter 'size' has no doc") &&
                                                    Contains("parameter 'size' has no range"));
    CHECK(sections["flawed.undocumented"].find("system allocations") == std::string::npos);
}

TEST_CASE("isochron-plugin-check reports a plugin the host refuses", "[plugins][check]") {
    const Result refused = runChecker(plugin(ISOCHRON_FIXTURE_DIR, "refused_entry").string());
    CHECK(refused.status == 2);
    CHECK_THAT(refused.output, Contains("problem: refused: plugin") && Contains("exports no isochron_plugin_entry"));
}
