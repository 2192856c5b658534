// Where plugins are found: the folders of ISOCHRON_PLUGIN_PATH, then the per-user plugin folder,
// then the plugin folder of the Isochron installation this engine library belongs to.
#pragma once

#include <filesystem>
#include <vector>

namespace isochron {

/// The per-user plugin folder: $XDG_DATA_HOME/isochron/plugins, else ~/.local/share/isochron/plugins.
/// [any thread] [may allocate]
std::filesystem::path userPluginFolder();

/// The installation's plugin folder: share/isochron/plugins beside the engine library's lib/
/// (where `cmake --install` of Isochron puts the plugins it ships). [any thread] [may allocate]
std::filesystem::path installedPluginFolder();

/// The folders searched, in order: each entry of ISOCHRON_PLUGIN_PATH (separated by ':'), then
/// userPluginFolder(), then installedPluginFolder(). Folders that do not exist are kept (the caller
/// may say so). [any thread]
std::vector<std::filesystem::path> pluginSearchFolders();

/// Every plugin binary ("*.so", not hidden) directly inside the search folders, sorted by name
/// within a folder. A file name found in an earlier folder hides the same name in later ones, so
/// ISOCHRON_PLUGIN_PATH can override an installed plugin. [setup thread] [may allocate]
std::vector<std::filesystem::path> discoverPlugins();

}  // namespace isochron
