#include "app/editor/plugin_options.h"

#include <cmath>
#include <stdexcept>

namespace isochron::editor {

PluginHosting PluginOptions::hostingOf(const std::filesystem::path& file) const {
    PluginHosting hosting;
    hosting.sandboxed = sandboxAll || sandboxed.contains(QString::fromStdString(file.stem().string()));  // a plugin's file is named after it
    if (watchdog) hosting.watchdog = hosting.setupWatchdog = *watchdog;  // each start sets it again (RunController::setSandboxWatchdog)
    return hosting;
}

QString PluginOptions::unknownSandboxName(const PluginHost& host) const {
    QStringList loaded;
    for (const PluginInfo* plugin : host.plugins()) loaded.append(QString::fromStdString(plugin->file.stem().string()));
    for (const QString& name : sandboxed) {
        if (loaded.contains(name)) continue;
        return QStringLiteral("--sandbox=%1 names no loaded plugin (%2; a plugin is named by its file without .so)")
            .arg(name, loaded.isEmpty() ? QStringLiteral("no plugins are loaded") : "loaded: " + loaded.join(", "));
    }
    return {};
}

PluginOptions takePluginOptions(int& argc, char** argv) {
    PluginOptions options;
    bool watchdogGiven = false;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const QString argument = QString::fromLocal8Bit(argv[i]);
        if ((argument == "--plugin" || argument == "-plugin") && i + 1 < argc) {
            options.files.append(QString::fromLocal8Bit(argv[++i]));
        } else if (argument.startsWith("--plugin=")) {
            options.files.append(argument.mid(9));
        } else if (argument == "--sandbox") {
            options.sandboxAll = true;
        } else if (argument.startsWith("--sandbox=")) {
            const QStringList names = argument.mid(10).split(',', Qt::SkipEmptyParts);
            if (names.isEmpty()) throw std::invalid_argument("--sandbox= needs plugin names, e.g. --sandbox=biquad,tones");
            options.sandboxed.append(names);
        } else if (argument == "--watchdog" || argument.startsWith("--watchdog=")) {
            if (watchdogGiven) throw std::invalid_argument("--watchdog may be given once");
            watchdogGiven = true;
            QString value;
            if (argument != "--watchdog") value = argument.mid(11);
            else if (i + 1 < argc) value = QString::fromLocal8Bit(argv[++i]);
            bool number = false;
            const double seconds = value.toDouble(&number);
            if (!number) throw std::invalid_argument("--watchdog needs a number of seconds, got '" + value.toStdString() + "'");
            if (!(seconds >= 0.01 && seconds <= 86400)) throw std::invalid_argument("--watchdog must be between 0.01 and 86400 s");
            options.watchdog = std::chrono::milliseconds(std::llround(seconds * 1000));
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    argv[argc] = nullptr;
    if (options.watchdog && !options.sandboxAll && options.sandboxed.isEmpty()) {
        throw std::invalid_argument("--watchdog times the calls into sandboxed plugins only, and none is: give --sandbox (or --sandbox=NAME) "
                                    "too, or leave --watchdog out");
    }
    return options;
}

}  // namespace isochron::editor
