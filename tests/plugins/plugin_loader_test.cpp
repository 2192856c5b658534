// The plugin loader: example plugins register next to the built-ins; every refusal names the file
// and the reason and leaves the registry as it was; manifests are compared with binaries; a manifest
// alone declares operators; discovery follows ISOCHRON_PLUGIN_PATH and the per-user folder.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/plugins/plugin_build_id.h"
#include "engine/plugins/plugin_discovery.h"
#include "engine/plugins/plugin_error.h"
#include "engine/runtime/engine.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/plugins/plugin_test_support.h"
#include "tests/support/run_command.h"

using namespace isochron;
using namespace isochron::test;
using Catch::Matchers::Contains;
using isochron::test::CommandResult;

namespace {

OperatorRegistry builtins() {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    return registry;
}

// A generator feeding zcr.rate into a null sink.
const char* kZeroCrossingGraph = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "tone", "type": "generators.signal_generator", "params": {"frequency": 440, "rate": 8000, "duration": 0.5}},
    {"id": "zcr", "type": "zcr.rate"},
    {"id": "sink", "type": "io.null_sink"}
  ],
  "edges": [{"from": "tone.out", "to": "zcr.in"}, {"from": "zcr.rate", "to": "sink.in"}]
})";

}  // namespace

TEST_CASE("example plugins register next to the built-ins with their file as origin, and unload again", "[plugins]") {
    OperatorRegistry registry = builtins();
    const std::uint64_t before = registry.generation();
    PluginHost host(registry);
    const PluginInfo& biquad = host.load(examplePlugin("biquad"));
    CHECK(biquad.name == "biquad");
    CHECK(biquad.codeLoaded);
    CHECK(biquad.operatorTypes == std::vector<std::string>{"biquad.filter"});
    CHECK(biquad.extensions == std::vector<std::string>{"isochron.check/1"});
    const OperatorDescriptor* filter = registry.find("biquad.filter");
    REQUIRE(filter != nullptr);
    CHECK(filter->origin == std::filesystem::canonical(examplePlugin("biquad")).string());
    CHECK(filter->category == "filters");
    CHECK(filter->findParam("frequency_hz")->unit == "Hz");
    CHECK(registry.generation() > before);
    CHECK(registry.find("stats.mean_filter")->origin == "built-in");

    host.load(examplePlugin("tones"));
    REQUIRE(host.itemTypes().size() == 1);
    CHECK(host.itemTypes()[0].name == "tones.tone");
    CHECK(registry.find("tones.detect")->outputs[0].type.toString() == "custom<tones.tone>");
    CHECK(host.plugins().size() == 2);

    CHECK(host.unload(examplePlugin("biquad")));
    CHECK(registry.find("biquad.filter") == nullptr);
    CHECK(host.find(examplePlugin("biquad")) == nullptr);
    CHECK_FALSE(host.unload(examplePlugin("biquad")));
}

TEST_CASE("the host refuses plugins of ABI 1, undefined symbols, missing entry points and taken type names", "[plugins]") {
    OperatorRegistry registry = builtins();
    PluginHost host(registry);
    const std::uint64_t generation = registry.generation();

    std::string refusal = refusalOf(host, fixturePlugin("refused_abi"));
    CHECK_THAT(refusal, Contains("refused_abi.so") && Contains("built for plugin ABI 1") && Contains("this Isochron speaks ABI 2: rebuild it"));
    refusal = refusalOf(host, fixturePlugin("refused_symbol"));
    CHECK_THAT(refusal, Contains("refused_symbol.so") && Contains("undefined symbol: isochron_fixture_function_nobody_defines"));
    refusal = refusalOf(host, fixturePlugin("refused_entry"));
    CHECK_THAT(refusal, Contains("refused_entry.so") && Contains("exports no isochron_plugin_entry"));
    refusal = refusalOf(host, fixturePlugin("refused_duplicate"));
    CHECK_THAT(refusal, Contains("refused_duplicate.so") &&
                            Contains("defines operator type 'stats.mean_filter', which already exists (from built-in)"));

    CHECK(registry.generation() == generation);  // nothing registered, nothing removed
    CHECK(host.plugins().empty());
    CHECK(registry.find("refused.nothing") == nullptr);
}

TEST_CASE("the host refuses a plugin without a manifest, with another ABI in its manifest, or loaded twice", "[plugins]") {
    ScratchFolder folder("manifest-refusals");
    OperatorRegistry registry = builtins();
    PluginHost host(registry);

    const auto bare = folder.path() / "bare.so";
    std::filesystem::copy_file(examplePlugin("zero_crossing_rate"), bare);
    CHECK_THAT(refusalOf(host, bare), Contains("bare.so") && Contains("no manifest (expected") && Contains("bare.manifest.json"));

    const auto older = copyPlugin(examplePlugin("zero_crossing_rate"), folder.path(), "older", [](nlohmann::json& m) { m["abi"] = 1; });
    CHECK_THAT(refusalOf(host, older), Contains("older.so") && Contains("its manifest says it was built for plugin ABI 1") && Contains("rebuild it"));
    const auto future = copyPlugin(examplePlugin("zero_crossing_rate"), folder.path(), "future", [](nlohmann::json& m) { m["abi"] = 3; });
    CHECK_THAT(refusalOf(host, future), Contains("future.so") && Contains("built for plugin ABI 3, but this Isochron speaks ABI 2"));

    const auto broken = folder.path() / "broken.so";
    std::filesystem::copy_file(examplePlugin("zero_crossing_rate"), broken);
    std::ofstream(manifestPathFor(broken)) << "{ not json";
    CHECK_THAT(refusalOf(host, broken), Contains("broken.so") && Contains("is not valid JSON"));

    host.load(examplePlugin("zero_crossing_rate"));
    CHECK_THAT(refusalOf(host, examplePlugin("zero_crossing_rate")), Contains("is already loaded"));
    // The same code under another name defines the same type: refused.
    const auto twin = copyPlugin(examplePlugin("zero_crossing_rate"), folder.path(), "twin");
    CHECK_THAT(refusalOf(host, twin), Contains("twin.so") && Contains("defines operator type 'zcr.rate', which already exists (from " +
                                                                     std::filesystem::canonical(examplePlugin("zero_crossing_rate")).string()));
}

TEST_CASE("the loader compares the manifest with the binary by name and names every difference", "[plugins]") {
    ScratchFolder folder("manifest-mismatch");
    OperatorRegistry registry = builtins();
    PluginHost host(registry);
    const auto edited = copyPlugin(examplePlugin("biquad"), folder.path(), "edited", [](nlohmann::json& m) {
        m["operators"][0]["params"][1]["unit"] = "kHz";
        m["operators"][0]["inputs"][0]["type"] = "signal<f64>";
        m["operators"].push_back(m["operators"][0]);
        m["operators"][1]["type"] = "biquad.ghost";
        m["extensions"] = nlohmann::json::array();
        m["version"] = "9.9.9";
    });
    const std::string refusal = refusalOf(host, edited);
    CHECK_THAT(refusal, Contains("edited.so: its manifest does not match the binary"));
    CHECK_THAT(refusal, Contains("operator 'biquad.filter', parameter 'frequency_hz', unit: the manifest says \"kHz\", the binary \"Hz\""));
    CHECK_THAT(refusal, Contains("operator 'biquad.filter', input 'in', type: the manifest says \"signal<f64>\", the binary \"signal<f32>\""));
    CHECK_THAT(refusal, Contains("operator 'biquad.ghost' is in the manifest but not in the binary"));
    CHECK_THAT(refusal, Contains("the binary offers extension isochron.check/1, the manifest does not list it"));
    CHECK_THAT(refusal, Contains("the manifest names biquad 9.9.9, the binary biquad 1.0.0"));
    CHECK(registry.find("biquad.filter") == nullptr);

    // Parameters are matched by name (plugins read them by name): another order is no difference,
    // and one changed parameter is one difference, not one for every parameter after it.
    const auto reordered = copyPlugin(examplePlugin("biquad"), folder.path(), "reordered", [](nlohmann::json& m) {
        std::swap(m["operators"][0]["params"][0], m["operators"][0]["params"][2]);
        m["operators"][0]["params"][1].erase("live");
    });
    const std::string reorderedRefusal = refusalOf(host, reordered);
    INFO(reorderedRefusal);
    CHECK_THAT(reorderedRefusal, Contains("parameter 'frequency_hz', live: the binary says true, the manifest has none"));
    CHECK(reorderedRefusal.find("another order") == std::string::npos);
    CHECK(std::count(reorderedRefusal.begin(), reorderedRefusal.end(), ';') == 0);  // exactly one difference
    const auto onlyReordered = copyPlugin(examplePlugin("biquad"), folder.path(), "only_reordered", [](nlohmann::json& m) {
        std::swap(m["operators"][0]["params"][0], m["operators"][0]["params"][2]);
    });
    CHECK(refusalOf(host, onlyReordered).empty());

    const auto itemless = copyPlugin(examplePlugin("tones"), folder.path(), "itemless", [](nlohmann::json& m) {
        m["item_types"] = nlohmann::json::array();
        m["extensions"] = nlohmann::json::array();
    });
    CHECK_THAT(refusalOf(host, itemless), Contains("item types: the manifest declares [], the binary [tones.tone"));
}

TEST_CASE("a manifest alone declares operators for the palette and validation; running needs the code", "[plugins]") {
    ScratchFolder folder("declared");
    OperatorRegistry registry = builtins();
    PluginHost host(registry);
    const auto plugin = folder.path() / "zcr.so";
    std::filesystem::copy_file(manifestPathFor(examplePlugin("zero_crossing_rate")), manifestPathFor(plugin));

    const PluginInfo& declared = host.declare(plugin);
    CHECK_FALSE(declared.codeLoaded);
    REQUIRE(registry.find("zcr.rate") != nullptr);
    CHECK(registry.find("zcr.rate")->findParam("window")->unit == "samples");
    const ValidatedGraph graph = validateGraph(parseGraph(kZeroCrossingGraph), registry);
    try {
        Engine engine(graph, SchedulerSpec{"df", {}});
        FAIL("an engine started an operator whose code is not loaded");
    } catch (const GraphException& e) {
        CHECK_THAT(e.errors().at(0).toString(), Contains("node 'zcr'") && Contains("its code is not loaded"));
    }

    std::filesystem::copy_file(examplePlugin("zero_crossing_rate"), plugin);
    CHECK(host.load(plugin).codeLoaded);
    Engine engine(validateGraph(parseGraph(kZeroCrossingGraph), registry), SchedulerSpec{"df", {}});
    const RunOutcome outcome = engine.run();
    CHECK(outcome.completed);
    CHECK(outcome.failures.empty());
    CHECK(engine.findNode("sink")->inputs[0].items == (4000 - 1024) / 512 + 1);
}

TEST_CASE("a port of a custom type no plugin declares is refused", "[plugins]") {
    ScratchFolder folder("undeclared-type");
    OperatorRegistry registry = builtins();
    PluginHost host(registry);
    const auto plugin = folder.path() / "typo.so";
    std::ifstream in(manifestPathFor(examplePlugin("tones")));
    nlohmann::json manifest = nlohmann::json::parse(in);
    manifest["operators"][1]["inputs"][0]["type"] = "custom<tones.tome>";
    std::ofstream(manifestPathFor(plugin)) << manifest.dump();
    try {
        host.declare(plugin);
        FAIL("declared a port of an undeclared custom type");
    } catch (const PluginError& e) {
        CHECK_THAT(e.what(), Contains("typo.so") && Contains("operator 'tones.frequency', port 'tones' carries custom<tones.tome>"));
    }
    CHECK(registry.find("tones.detect") == nullptr);
}

TEST_CASE("discovery searches ISOCHRON_PLUGIN_PATH, then the per-user folder; earlier names hide later ones", "[plugins]") {
    ScratchFolder folder("discovery");
    const auto first = folder.path() / "first", second = folder.path() / "second", data = folder.path() / "data";
    const auto user = data / "isochron" / "plugins";
    for (const auto& dir : {first, second, user}) std::filesystem::create_directories(dir);
    for (const auto& file : {first / "x.so", second / "x.so", second / "y.so", user / "z.so", first / ".hidden.so", first / "notes.txt"}) {
        std::ofstream(file) << "";
    }
    const std::string path = first.string() + ":" + second.string() + "::" + (folder.path() / "missing").string();
    setenv("ISOCHRON_PLUGIN_PATH", path.c_str(), 1);
    setenv("XDG_DATA_HOME", data.c_str(), 1);
    CHECK(userPluginFolder() == user);
    CHECK(pluginSearchFolders() == std::vector<std::filesystem::path>{first, second, folder.path() / "missing", user, installedPluginFolder()});
    CHECK(installedPluginFolder().filename() == "plugins");
    CHECK(discoverPlugins() == std::vector<std::filesystem::path>{first / "x.so", second / "y.so", user / "z.so"});

    unsetenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    const std::string savedHome = home ? home : "";
    setenv("HOME", folder.path().c_str(), 1);
    CHECK(userPluginFolder() == folder.path() / ".local" / "share" / "isochron" / "plugins");
    setenv("HOME", savedHome.c_str(), 1);
    unsetenv("ISOCHRON_PLUGIN_PATH");
}

TEST_CASE("the build writes each plugin's manifest from its binary, with the binary's build id", "[plugins][manifest]") {
    const auto zcr = examplePlugin("zero_crossing_rate");
    const CommandResult printed = runProgram(ISOCHRON_PLUGIN_MANIFEST_BINARY, "--print " + zcr.string());
    REQUIRE(printed.status == 0);
    std::ifstream in(manifestPathFor(zcr));
    const nlohmann::json written = nlohmann::json::parse(in);
    CHECK(nlohmann::json::parse(printed.output) == written);
    CHECK(written["abi"] == 2);
    CHECK(written["operators"][0]["params"][0]["unit"] == "samples");
    CHECK(written["build_id"].get<std::string>().size() == 40);  // sha1
    CHECK(written["build_id"] == pluginBuildId(zcr));
    CHECK(manifestDescribesBuild(zcr));

    // Release 2's binary beside release 1's manifest: another build, and the refusal says so.
    ScratchFolder folder("manifest-build");
    const auto plugin = copyPlugin(fixturePlugin("versioned_v1"), folder.path(), "versioned");
    std::filesystem::copy_file(fixturePlugin("versioned_v2"), plugin, std::filesystem::copy_options::overwrite_existing);
    CHECK_FALSE(manifestDescribesBuild(plugin));
    OperatorRegistry registry = builtins();
    PluginHost host(registry);
    CHECK_THAT(refusalOf(host, plugin), Contains("the manifest was generated from another build of the binary"));

    // A bare file name is the file in the current folder, not a library for dlopen to search for.
    const CommandResult bare = runProgram("cd " + zcr.parent_path().string() + " && " + ISOCHRON_PLUGIN_MANIFEST_BINARY, "--print " + zcr.filename().string());
    INFO(bare.output);
    CHECK(bare.status == 0);
    CHECK(nlohmann::json::parse(bare.output) == written);

    const CommandResult refused = runProgram(ISOCHRON_PLUGIN_MANIFEST_BINARY, fixturePlugin("refused_entry").string());
    CHECK(refused.status == 2);
    CHECK_THAT(refused.output, Contains("refused_entry.so: exports no isochron_plugin_entry"));
}
