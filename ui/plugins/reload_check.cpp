#include "ui/plugins/reload_check.h"

#include <exception>

#include "engine/plugins/plugin_host.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::ui {

std::optional<std::string> reloadRefusal(const PluginHost& host, const std::filesystem::path& file) {
    const PluginInfo* current = host.find(file);
    if (!current) return std::string("plugin " + file.string() + ": is not loaded, so it cannot be reloaded");
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    PluginHost scratch(registry);
    for (const PluginInfo* other : host.plugins()) {
        if (other == current) continue;
        try {
            scratch.declare(other->file);  // its names and item types, which the new build must not clash with
        } catch (const std::exception&) {
            // Its own manifest changed and is refused: its reload says so; it claims no names here.
        }
    }
    try {
        scratch.load(current->file, current->hosting);
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

}  // namespace isochron::ui
