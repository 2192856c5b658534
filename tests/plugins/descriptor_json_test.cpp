// Manifest JSON can say everything a descriptor declares: every built-in round-trips through
// descriptorToJson/descriptorFromJson without a difference, and bad manifest fields are named.
#include <catch2/catch.hpp>

#include "engine/plugins/descriptor_json.h"
#include "engine/plugins/plugin_manifest.h"
#include "nodes/register_builtin_nodes.h"

using namespace isochron;
using Catch::Matchers::Contains;

TEST_CASE("every built-in descriptor round-trips through manifest JSON", "[plugins][manifest]") {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    REQUIRE(registry.all().size() > 20);
    for (const OperatorDescriptor* builtin : registry.all()) {
        INFO(builtin->typeName);
        const OperatorDescriptor parsed = descriptorFromJson(nlohmann::json::parse(descriptorToJson(*builtin).dump()));
        CHECK(descriptorDifferences(parsed, *builtin).empty());
        CHECK(parsed.params.size() == builtin->params.size());
    }
}

TEST_CASE("descriptor differences and manifest errors name the field", "[plugins][manifest]") {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    const OperatorDescriptor& mean = *registry.find("stats.mean_filter");
    nlohmann::json json = descriptorToJson(mean);
    json["params"][0]["max"] = 5;
    json["outputs"][0]["optional"] = true;
    const auto differences = descriptorDifferences(descriptorFromJson(json), mean);
    REQUIRE(differences.size() == 2);
    CHECK_THAT(differences[0], Contains("output '" + mean.outputs[0].name + "', optional: the manifest says true, the binary has none"));
    CHECK_THAT(differences[1], Contains("parameter '" + mean.params[0].name + "', max: the manifest says 5.0, the binary has none"));

    json = descriptorToJson(mean);
    json["params"][1]["kind"] = "float";
    CHECK_THROWS_WITH(descriptorFromJson(json), Contains("params[1].kind: 'float' is not a parameter kind"));
    json = descriptorToJson(mean);
    json["inputs"][0]["type"] = "signal<f17>";
    CHECK_THROWS_WITH(descriptorFromJson(json), Contains("inputs[0].type: 'signal<f17>' is not a port type"));
    json = descriptorToJson(mean);
    json["params"].push_back(json["params"][0]);  // found by fuzzing: a second parameter of a name never read back
    CHECK_THROWS_WITH(descriptorFromJson(json), Contains("params: '" + mean.params[0].name + "' appears twice"));
    json = descriptorToJson(mean);
    json["outputs"].push_back(json["outputs"][0]);
    CHECK_THROWS_WITH(descriptorFromJson(json), Contains("outputs: '" + mean.outputs[0].name + "' appears twice"));
    json = descriptorToJson(mean);
    json["params"][0]["default"] = "loud";
    CHECK_THROWS_WITH(descriptorFromJson(json), Contains("params[0].default"));
    CHECK_THROWS_WITH(pluginManifestFromJson({{"format", "isochron-plugin/2"}}), Contains("format: expected \"isochron-plugin/1\""));
    CHECK_THROWS_WITH(pluginManifestFromJson({{"format", "isochron-plugin/1"}, {"name", "x"}, {"version", 1}}),
                      Contains("manifest.version: has the wrong type (1)"));
    CHECK_THROWS_WITH(pluginManifestFromJson({{"format", "isochron-plugin/1"}, {"name", "x"}, {"version", "1"}, {"abi", 2}, {"item_types", {{{"doc", "d"}}}}}),
                      Contains("manifest.item_types[0].name: missing"));
    // Found by fuzzing: a number that is no uint32 was converted with a plain cast (undefined behaviour).
    for (const nlohmann::json abi : {nlohmann::json(2.4e69), nlohmann::json(-1), nlohmann::json(2.5), nlohmann::json("2")}) {
        CHECK_THROWS_WITH(pluginManifestFromJson({{"format", "isochron-plugin/1"}, {"name", "x"}, {"version", "1"}, {"abi", abi}}),
                          Contains("manifest.abi: must be an integer from 0 to 4294967295"));
    }
}
