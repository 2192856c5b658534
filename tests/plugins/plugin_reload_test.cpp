// Hot reload (the engine side the editor calls): a new build of a plugin replaces the old one under
// a new registry generation, with a report of added, removed, changed and unchanged types; graphs
// validated again run the new code; a refused new build leaves the old one loaded.
#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/plugins/plugin_error.h"
#include "engine/runtime/engine.h"
#include "tests/plugins/plugin_test_support.h"
#include "tests/support/test_operators.h"

using namespace isochron;
using namespace isochron::test;
using Catch::Matchers::Contains;

namespace {

// Three scalars through versioned.gain with its default gain.
std::vector<double> gainOutput(OperatorRegistry& registry) {
    const Timebase& timebase = Timebase::get(1000);
    FeedScript script;
    script.batches.push_back({});
    for (int i = 1; i <= 3; ++i) script.batches[0].push_back({0, Item::scalar(i, SampleRange{&timebase, i, 1})});
    feedScripts()["scalars"] = script;
    runGraphWith(registry, R"({
      "format": "isochron-graph/1",
      "nodes": [
        {"id": "feed", "type": "test.feed", "params": {"name": "scalars", "type": "scalar"}},
        {"id": "gain", "type": "versioned.gain"},
        {"id": "out", "type": "test.collect", "params": {"name": "gained"}}
      ],
      "edges": [{"from": "feed.out0", "to": "gain.in"}, {"from": "gain.out", "to": "out.in0"}]
    })");
    std::vector<double> values;
    for (const Item& item : collections()["gained"].items.at(0)) values.push_back(item.value());
    return values;
}

}  // namespace

TEST_CASE("reload swaps in a new build and reports what changed", "[plugins][reload]") {
    ScratchFolder folder("reload");
    OperatorRegistry& registry = testRegistry();
    PluginHost host(registry);
    const auto plugin = copyPlugin(fixturePlugin("versioned_v1"), folder.path(), "versioned");
    host.load(plugin);
    CHECK(registry.find("versioned.old") != nullptr);
    CHECK(gainOutput(registry) == std::vector<double>{1, 2, 3});

    copyPlugin(fixturePlugin("versioned_v2"), folder.path(), "versioned");
    const std::uint64_t before = registry.generation();
    const PluginReloadReport report = host.reload(plugin);
    CHECK(report.generation > before);
    CHECK(report.generation == registry.generation());
    CHECK(report.added == std::vector<std::string>{"versioned.new"});
    CHECK(report.removed == std::vector<std::string>{"versioned.old"});
    CHECK(report.changed == std::vector<std::string>{"versioned.gain"});
    CHECK(report.unchanged == std::vector<std::string>{"versioned.same"});
    CHECK(host.find(plugin)->version == "2.0.0");
    CHECK(registry.find("versioned.old") == nullptr);
    CHECK(registry.find("versioned.new") != nullptr);
    // New code: the default gain is now 2.
    CHECK(gainOutput(registry) == std::vector<double>{2, 4, 6});
}

TEST_CASE("a refused new build leaves the loaded one in place", "[plugins][reload]") {
    ScratchFolder folder("reload-refused");
    OperatorRegistry& registry = testRegistry();
    PluginHost host(registry);
    const auto plugin = copyPlugin(fixturePlugin("versioned_v1"), folder.path(), "versioned");
    host.load(plugin);
    // Release 2's binary beside release 1's manifest: the manifest no longer matches.
    std::filesystem::copy_file(fixturePlugin("versioned_v2"), plugin, std::filesystem::copy_options::overwrite_existing);
    const std::uint64_t before = registry.generation();
    try {
        host.reload(plugin);
        FAIL("reloaded a build whose manifest does not match");
    } catch (const PluginError& e) {
        CHECK_THAT(e.what(), Contains("versioned.so: its manifest does not match the binary") &&
                                 Contains("operator 'versioned.old' is in the manifest but not in the binary"));
    }
    CHECK(registry.generation() == before);
    CHECK(host.find(plugin)->version == "1.0.0");
    CHECK(gainOutput(registry) == std::vector<double>{1, 2, 3});

    CHECK_THROWS_WITH(host.reload(folder.path() / "never-loaded.so"), Contains("is not loaded"));
    host.unload(plugin);
    CHECK(registry.find("versioned.gain") == nullptr);
}
