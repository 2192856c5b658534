#include "ui/plugins/plugin_file_watcher.h"

#include <QFileInfo>

#include <filesystem>

#include "engine/plugins/plugin_build_id.h"
#include "engine/plugins/plugin_manifest.h"

namespace isochron::ui {

namespace {

// How long a settled binary waits for its manifest before the change is reported anyway.
constexpr std::chrono::seconds kManifestPatience{5};

QString manifestOf(const QString& pluginFile) {
    return QString::fromStdString(manifestPathFor(pluginFile.toStdString()).string());
}

}  // namespace

PluginFileWatcher::PluginFileWatcher(std::chrono::milliseconds settle, QObject* parent) : QObject(parent) {
    settleTimer_.setSingleShot(true);
    settleTimer_.setInterval(settle);
    connect(&settleTimer_, &QTimer::timeout, this, &PluginFileWatcher::settleTick);
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, &PluginFileWatcher::pathChanged);
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, &PluginFileWatcher::pathChanged);
}

void PluginFileWatcher::watch(const QString& pluginFile) {
    const QString file = QFileInfo(pluginFile).absoluteFilePath();
    Watched& entry = plugins_[file];
    entry.reported = entry.seen = stampOf(file);
    watcher_.addPath(QFileInfo(file).absolutePath());
    rewatch(file);
}

PluginFileWatcher::Stamp PluginFileWatcher::stampOf(const QString& pluginFile) {
    namespace fs = std::filesystem;
    Stamp stamp;
    std::error_code error;
    const fs::path binary = pluginFile.toStdString(), manifest = manifestOf(pluginFile).toStdString();
    const auto binarySize = fs::file_size(binary, error);
    if (error) return stamp;
    const auto binaryTime = fs::last_write_time(binary, error);
    if (error) return stamp;
    const auto manifestSize = fs::file_size(manifest, error);
    if (error) return stamp;
    const auto manifestTime = fs::last_write_time(manifest, error);
    if (error) return stamp;
    stamp.present = true;
    stamp.binarySize = static_cast<long long>(binarySize);
    stamp.manifestSize = static_cast<long long>(manifestSize);
    stamp.binaryTime = std::chrono::duration_cast<std::chrono::nanoseconds>(binaryTime.time_since_epoch()).count();
    stamp.manifestTime = std::chrono::duration_cast<std::chrono::nanoseconds>(manifestTime.time_since_epoch()).count();
    return stamp;
}

// A folder event may be about any file in it: every plugin there is looked at again; those whose
// files did not change are dropped when the settling ends.
void PluginFileWatcher::pathChanged(const QString& path) {
    for (auto& [file, entry] : plugins_) {
        if (path == file || path == manifestOf(file) || path == QFileInfo(file).absolutePath()) {
            if (!entry.settling) entry.seen = stampOf(file);
            entry.settling = true;
        }
    }
    settleTimer_.start();
}

void PluginFileWatcher::settleTick() {
    QStringList settled;
    bool unsettled = false;
    for (auto& [file, entry] : plugins_) {
        if (!entry.settling) continue;
        rewatch(file);
        const Stamp now = stampOf(file);
        if (!now.present) {  // gone for now: its folder's watch reports it when it is back
            entry.seen = now;
            continue;
        }
        if (!(now == entry.seen)) {  // still being written
            entry.seen = now;
            unsettled = true;
            continue;
        }
        if (now == entry.reported) {
            entry.settling = false;
            continue;
        }
        const auto clock = std::chrono::steady_clock::now();
        if (!manifestDescribesBuild(file.toStdString())) {
            if (entry.disagreeingSince == std::chrono::steady_clock::time_point{}) entry.disagreeingSince = clock;
            if (clock - entry.disagreeingSince < kManifestPatience) {
                unsettled = true;  // look again: the build is still writing the manifest
                continue;
            }
        }
        entry.disagreeingSince = {};
        entry.settling = false;
        entry.reported = now;
        settled.append(file);
    }
    if (unsettled) settleTimer_.start();
    for (const QString& file : settled) Q_EMIT changed(file);
}

// A replaced file loses its watch; add it again once the new file exists.
void PluginFileWatcher::rewatch(const QString& pluginFile) {
    const QStringList files = watcher_.files();
    for (const QString& path : {pluginFile, manifestOf(pluginFile)}) {
        if (!files.contains(path) && QFileInfo::exists(path)) watcher_.addPath(path);
    }
}

}  // namespace isochron::ui
