#include "engine/plugins/plugin_discovery.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

namespace isochron {

std::filesystem::path userPluginFolder() {
    const char* dataHome = std::getenv("XDG_DATA_HOME");
    if (dataHome && *dataHome) return std::filesystem::path(dataHome) / "isochron" / "plugins";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home ? home : ".") / ".local" / "share" / "isochron" / "plugins";
}

std::filesystem::path installedPluginFolder() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&installedPluginFolder), &info) || !info.dli_fname) return {};
    // ISOCHRON_PLUGINS_INSTALLED: the folder relative to the engine library's, as installed (CMake).
    return (std::filesystem::path(info.dli_fname).parent_path() / ISOCHRON_PLUGINS_INSTALLED).lexically_normal();
}

std::vector<std::filesystem::path> pluginSearchFolders() {
    std::vector<std::filesystem::path> folders;
    if (const char* path = std::getenv("ISOCHRON_PLUGIN_PATH")) {
        std::string_view rest = path;
        while (!rest.empty()) {
            const std::size_t colon = rest.find(':');
            std::string_view entry = rest.substr(0, colon);
            if (!entry.empty()) folders.emplace_back(entry);
            rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        }
    }
    folders.push_back(userPluginFolder());
    if (std::filesystem::path installed = installedPluginFolder(); !installed.empty()) folders.push_back(std::move(installed));
    return folders;
}

std::vector<std::filesystem::path> discoverPlugins() {
    std::vector<std::filesystem::path> plugins;
    std::set<std::string> seenNames;
    for (const auto& folder : pluginSearchFolders()) {
        std::error_code error;
        std::vector<std::filesystem::path> found;
        for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
            const std::string name = entry.path().filename().string();
            // Hidden names include the private copies the loader maps (see plugin_library.h). A *.so
            // that is no regular file (a folder, a FIFO, a device, a loop of symlinks) is kept: loading
            // it refuses it with a warning that says what it is, as for any broken plugin.
            if (name.starts_with(".") || entry.path().extension() != ".so") continue;
            found.push_back(entry.path());
        }
        std::sort(found.begin(), found.end());
        for (auto& path : found) {
            if (seenNames.insert(path.filename().string()).second) plugins.push_back(std::move(path));
        }
    }
    return plugins;
}

}  // namespace isochron
