// isochron-plugin-manifest: write the manifest a plugin binary implies, beside it. isochron_add_plugin()
// runs it after every link, so a plugin's manifest always describes the binary it sits next to.
#include <cstring>
#include <iostream>

#include "engine/plugins/plugin_error.h"
#include "engine/plugins/plugin_library.h"

namespace {

const char* kUsage = R"(Usage: isochron-plugin-manifest [--print] PLUGIN.so

Loads the plugin (as isochron-run would, without running any operator) and writes what it
declares (name, version, ABI, build id, extensions, item types, operators with their ports and
parameters) to PLUGIN.manifest.json beside it, or with --print to standard output.

Exit status: 0 written, 1 bad usage, 2 the plugin was refused (the message says why).
)";

}  // namespace

int main(int argc, char** argv) {
    bool print = false;
    const char* file = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--print") == 0) print = true;
        else if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
            std::cout << kUsage;
            return 0;
        } else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            std::cerr << "isochron-plugin-manifest: unexpected argument " << argv[i] << " (try --help)\n";
            return 1;
        }
    }
    if (!file) {
        std::cerr << "isochron-plugin-manifest: no plugin given (try --help)\n";
        return 1;
    }
    try {
        const isochron::PluginManifest manifest = isochron::PluginLibrary::open(file)->impliedManifest();
        if (print) std::cout << isochron::pluginManifestToJson(manifest).dump(2) << "\n";
        else isochron::writePluginManifest(file, manifest);
    } catch (const isochron::PluginError& e) {
        std::cerr << "isochron-plugin-manifest: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
