// The editor's plugin options, taken as isochron-run takes them (app/run/command_line.cpp):
//   --plugin FILE (repeatable), --sandbox (every plugin) or --sandbox=NAME,... (the plugins named, by
//   file name without .so), --watchdog SECONDS (sandboxed calls only; refused without --sandbox).
// They leave argv before QGuiApplication sees it: Qt takes "-plugin X" for its own input plugins, and
// QCommandLineParser has no option whose value may be left out (--sandbox / --sandbox=NAMES).
#pragma once

#include <QStringList>

#include <chrono>
#include <filesystem>
#include <optional>

#include "engine/plugins/plugin_host.h"

namespace isochron::editor {

/// What the command line says about plugins. [value type]
struct PluginOptions {
    QStringList files;                     ///< --plugin: load these (a refusal is fatal)
    bool sandboxAll = false;               ///< --sandbox: every plugin out of process
    QStringList sandboxed;                 ///< --sandbox=a,b: these plugins (by file name without .so) out of process
    std::optional<std::chrono::milliseconds> watchdog;  ///< --watchdog: longest one sandboxed call may take

    /// How the plugin in `file` is hosted: sandboxed when --sandbox names it or all. [any thread]
    PluginHosting hostingOf(const std::filesystem::path& file) const;
    /// Why a --sandbox=NAME names no plugin `host` loaded (listing those it did), or "" when each does. [setup thread]
    QString unknownSandboxName(const PluginHost& host) const;
};

/// Takes the plugin options out of argv (argc shrinks); throws std::invalid_argument saying what to
/// give for a --sandbox= without names, a --watchdog without a number in 0.01-86400 s or without
/// --sandbox. [main thread, before the application is made]
PluginOptions takePluginOptions(int& argc, char** argv);

}  // namespace isochron::editor
