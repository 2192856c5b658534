// Fuzz target: plugin manifests (name.manifest.json), what the editor's palette and graph
// validation read without loading a plugin's code, and what the loader compares with the binary.
//
// Input: the manifest's text. Properties: a refused manifest is an std::invalid_argument with a
// message; an accepted one writes JSON that reads back to the same JSON, each of its operators
// differs in nothing from itself read back (descriptorDifferences, which matches ports and
// parameters by name, finds nothing), and declaring it to a PluginHost beside the built-ins either
// refuses with a PluginError that has a message and leaves the registry as it was, or registers
// exactly its operators, which unloading removes again.
#include <string>

#include "engine/operators/registry.h"
#include "engine/plugins/descriptor_json.h"
#include "engine/plugins/plugin_error.h"
#include "engine/plugins/plugin_host.h"
#include "engine/plugins/plugin_manifest.h"
#include "nodes/register_builtin_nodes.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

OperatorRegistry& builtins() {
    static OperatorRegistry* registry = [] {
        auto* made = new OperatorRegistry();
        registerBuiltinNodes(*made);
        return made;
    }();
    return *registry;
}

void checkDeclared(std::string_view text, const PluginManifest& manifest) {
    const std::filesystem::path plugin = fuzz::scratchDirectory() / "fuzzed.so";
    fuzz::writeFile(manifestPathFor(plugin), text);
    OperatorRegistry& registry = builtins();
    const std::size_t before = registry.all().size();
    PluginHost host(registry);
    try {
        const PluginInfo& info = host.declare(plugin);
        fuzz::require(!info.codeLoaded, "a declared plugin claims its code is loaded");
        fuzz::require(info.operatorTypes.size() == manifest.operators.size(), "declare registered another number of operators");
        for (const OperatorDescriptor& op : manifest.operators) {
            fuzz::require(registry.find(op.typeName) != nullptr, "a declared operator is not in the registry");
        }
        fuzz::require(registry.all().size() == before + manifest.operators.size(), "declare changed other operators");
        host.unload(plugin);
    } catch (const PluginError& e) {
        fuzz::require(!e.reason().empty(), "a refused manifest without a reason");
    }
    fuzz::require(registry.all().size() == before, "the registry did not return to the built-ins");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded()) return 0;
    PluginManifest manifest;
    try {
        manifest = pluginManifestFromJson(json);
    } catch (const std::invalid_argument& e) {
        fuzz::require(std::string_view(e.what()).size() > 0, "a refused manifest without a message");
        return 0;
    }
    const nlohmann::ordered_json written = pluginManifestToJson(manifest);
    const PluginManifest reread = pluginManifestFromJson(nlohmann::json::parse(written.dump()));
    fuzz::require(pluginManifestToJson(reread) == written, "a manifest does not read back to the JSON it writes");
    fuzz::require(reread.operators.size() == manifest.operators.size(), "operators lost on the way back");
    for (std::size_t i = 0; i < manifest.operators.size(); ++i) {
        fuzz::require(descriptorDifferences(manifest.operators[i], reread.operators[i]).empty(), "an operator differs from itself read back");
    }
    checkDeclared(text, manifest);
    return 0;
}
