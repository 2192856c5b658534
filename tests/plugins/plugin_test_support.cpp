#include "tests/plugins/plugin_test_support.h"

#include <fstream>
#include <unistd.h>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/plugins/plugin_error.h"
#include "engine/runtime/engine.h"
#include "tests/support/test_operators.h"

namespace isochron::test {

std::filesystem::path examplePlugin(const std::string& name) { return std::filesystem::path(ISOCHRON_EXAMPLE_PLUGIN_DIR) / (name + ".so"); }
std::filesystem::path fixturePlugin(const std::string& name) { return std::filesystem::path(ISOCHRON_FIXTURE_DIR) / (name + ".so"); }

ScratchFolder::ScratchFolder(const std::string& name)
    : path_(std::filesystem::temp_directory_path() / ("isochron-plugin-test-" + name + "-" + std::to_string(getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

ScratchFolder::~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path copyPlugin(const std::filesystem::path& plugin, const std::filesystem::path& folder, const std::string& name,
                                 const std::function<void(nlohmann::json&)>& editManifest) {
    const std::filesystem::path target = folder / (name + ".so");
    std::filesystem::copy_file(plugin, target, std::filesystem::copy_options::overwrite_existing);
    std::ifstream in(manifestPathFor(plugin));
    nlohmann::json manifest = nlohmann::json::parse(in);
    if (editManifest) editManifest(manifest);
    std::ofstream(manifestPathFor(target)) << manifest.dump(2);
    return target;
}

std::string refusalOf(PluginHost& host, const std::filesystem::path& plugin) {
    try {
        host.load(plugin);
    } catch (const PluginError& e) {
        return e.what();
    }
    return "";
}

OperatorRegistry& registryWithExamplePlugins() {
    // Never unloaded: items kept in the test's static feeds and collections may hold custom
    // payloads whose code lives in the plugins until the very end of the process.
    static PluginHost* host = [] {
        auto* loaded = new PluginHost(testRegistry());
        for (const char* name : {"biquad", "zero_crossing_rate", "tones"}) loaded->load(examplePlugin(name));
        return loaded;
    }();
    return host->registry();
}

RunOutcome runGraphWith(OperatorRegistry& registry, const std::string& graphJson) {
    ValidatedGraph graph = validateGraph(parseGraph(graphJson), registry);
    Engine engine(graph, SchedulerSpec{"df", {}});
    return engine.run();
}

}  // namespace isochron::test
