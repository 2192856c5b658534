// Notices when a plugin's binary or manifest is rewritten, however it happens: written in place,
// deleted and written again, or replaced by a rename (as compilers and linkers do). The file and its
// folder are both watched, since a watch on a file is lost when the file is replaced. A change is
// reported once the files have stayed the same for a settling time, so a half-written binary is
// never reloaded, and once the manifest describes the binary (a build links the binary first and
// writes its manifest after): a new binary beside the old manifest waits for the new manifest, up
// to a patience after which it is reported anyway (the reload then says what does not match).
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <map>

namespace isochron::ui {

/// Watches plugin files and reports each settled change once. [ui thread]
class PluginFileWatcher : public QObject {
    Q_OBJECT
public:
    /// `settle`: how long the files must stay unchanged before a change is reported.
    explicit PluginFileWatcher(std::chrono::milliseconds settle = std::chrono::milliseconds(300), QObject* parent = nullptr);

    /// Watch a plugin binary and its manifest; their current state counts as unchanged.
    void watch(const QString& pluginFile);

Q_SIGNALS:
    /// The binary or the manifest of `pluginFile` changed and has settled.
    void changed(const QString& pluginFile);

private:
    /// Size and modification time of a plugin's binary and manifest; `present` false while either is missing.
    struct Stamp {
        bool present = false;
        long long binarySize = 0, manifestSize = 0;
        long long binaryTime = 0, manifestTime = 0;  // nanoseconds since the file clock's epoch
        bool operator==(const Stamp&) const = default;
    };
    struct Watched {
        Stamp reported;  // as of the last report (or watch())
        Stamp seen;      // as of the last look while settling
        bool settling = false;
        std::chrono::steady_clock::time_point disagreeingSince{};  // settled, waiting for the manifest to describe the binary
    };
    static Stamp stampOf(const QString& pluginFile);
    void pathChanged(const QString& path);
    void settleTick();
    void rewatch(const QString& pluginFile);

    QFileSystemWatcher watcher_;
    QTimer settleTimer_;
    std::map<QString, Watched> plugins_;
};

}  // namespace isochron::ui
