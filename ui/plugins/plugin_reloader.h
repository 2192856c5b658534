// Hot reload of plugins in the editor. When a plugin file changes (PluginFileWatcher) or the user
// asks (Run > Reload Plugins), the runs of every attached window are stopped, since the host may
// only swap code while no engine runs; then PluginHost::reload swaps each plugin, every attached
// document is validated again (its nodes keep their ids, wires and parameters: they are specs, and
// the new types' ports and docs show, while wires that no longer fit become problems), a summary of
// what changed goes out for the toast, and the runs that were stopped start again on the new code.
// A refused new build keeps the old one loaded and, when the refusal is known before the runs stop
// (it is tried on a scratch host first: reload_check.h), leaves them running; its reason stays in
// the problems panels until the plugin reloads cleanly.
#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include <map>
#include <string>
#include <vector>

#include "ui/plugins/plugin_file_watcher.h"
#include "ui/run/run_controller.h"

class QJSEngine;
class QQmlEngine;

namespace isochron {
class PluginHost;
struct PluginReloadReport;
}  // namespace isochron

namespace isochron::ui {

/// Reloads the editor's plugins and brings its windows up to date. [ui thread]
class PluginReloader : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
public:
    /// Watches every plugin of `host` (null: an editor without plugins, where nothing reloads).
    /// The first one made is the one QML gets. `settle`: see PluginFileWatcher.
    explicit PluginReloader(PluginHost* host, std::chrono::milliseconds settle = std::chrono::milliseconds(300), QObject* parent = nullptr);
    ~PluginReloader() override;
    /// For QML: the reloader main() made, else one without plugins, owned by `engine`.
    static PluginReloader* create(QQmlEngine* engine, QJSEngine*);

    /// A window's run (and, through it, its document) to stop, update and restart on reloads.
    Q_INVOKABLE void attach(isochron::ui::RunController* run);
    /// Reload every plugin now (once the runs have stopped).
    Q_INVOKABLE void reloadAll();
    /// Reload one plugin (once the runs have stopped); what the file watcher calls.
    void reload(const QString& pluginFile);

Q_SIGNALS:
    /// Plugins were reloaded: `summary` says what changed, one line per plugin; `ok` is false when a
    /// new build was refused (the old one stays). Operator catalogs must refresh now.
    void reloaded(const QString& summary, bool ok);

private:
    void proceed();
    /// Takes out of the pending reloads the files whose new build the host would refuse, saying
    /// why (toast, problems panels), so that the runs are not stopped for them.
    void refuseUnloadable();
    void reloadPending();
    static QString describe(const PluginReloadReport& report, const std::string& version);
    void showFailures(GraphDocument* document) const;

    PluginHost* host_;
    PluginFileWatcher watcher_;
    QStringList pending_;
    bool proceedQueued_ = false;
    std::vector<QPointer<RunController>> runs_;
    std::vector<QPointer<RunController>> toRestart_;
    std::map<QString, std::string> failures_;  // by plugin file: why its new build was refused
    static PluginReloader* instance_;
};

}  // namespace isochron::ui
