#include "ui/plugins/plugin_reloader.h"

#include <QFileInfo>
#include <QQmlEngine>

#include <algorithm>
#include <utility>

#include "engine/plugins/plugin_host.h"
#include "ui/plugins/reload_check.h"

namespace isochron::ui {

namespace {

const QString kPluginProblems = QStringLiteral("plugins");  // the problems panel's source

QString typeList(const std::vector<std::string>& types) {
    QStringList names;
    for (const std::string& type : types) names.append(QString::fromStdString(type));
    return names.join(", ");
}

}  // namespace

PluginReloader* PluginReloader::instance_ = nullptr;

PluginReloader::PluginReloader(PluginHost* host, std::chrono::milliseconds settle, QObject* parent)
    : QObject(parent), host_(host), watcher_(settle) {
    if (!instance_) instance_ = this;
    if (host_) {
        for (const PluginInfo* plugin : host_->plugins()) watcher_.watch(QString::fromStdString(plugin->file.string()));
    }
    connect(&watcher_, &PluginFileWatcher::changed, this, &PluginReloader::reload);
}

PluginReloader::~PluginReloader() {
    if (instance_ == this) instance_ = nullptr;
}

PluginReloader* PluginReloader::create(QQmlEngine* engine, QJSEngine*) {
    if (instance_) {
        QJSEngine::setObjectOwnership(instance_, QJSEngine::CppOwnership);
        return instance_;
    }
    return new PluginReloader(nullptr, std::chrono::milliseconds(300), engine);
}

void PluginReloader::attach(RunController* run) {
    if (!run) return;
    runs_.emplace_back(run);
    connect(run, &RunController::stateChanged, this, [this] {
        if (pending_.isEmpty() || proceedQueued_) return;
        proceedQueued_ = true;  // after the run controller has finished handling the change
        QMetaObject::invokeMethod(this, [this] { proceedQueued_ = false; proceed(); }, Qt::QueuedConnection);
    });
    showFailures(run->document());
}

void PluginReloader::reloadAll() {
    if (!host_ || host_->plugins().empty()) {  // say so, rather than nothing
        Q_EMIT reloaded(tr("No plugins are loaded."), true);
        return;
    }
    for (const PluginInfo* plugin : host_->plugins()) {
        const QString file = QString::fromStdString(plugin->file.string());
        if (!pending_.contains(file)) pending_.append(file);
    }
    proceed();  // one reload, one summary, for all of them
}

void PluginReloader::reload(const QString& pluginFile) {
    if (!host_) return;
    if (!pending_.contains(pluginFile)) pending_.append(pluginFile);
    proceed();
}

// Stop every run first (the host swaps code only while no engine runs), then reload; but a build
// the host would refuse is refused before any run is stopped for it.
void PluginReloader::proceed() {
    if (pending_.isEmpty()) return;
    const bool anyRunning = std::any_of(runs_.begin(), runs_.end(), [](const QPointer<RunController>& run) { return run && run->running(); });
    if (anyRunning && toRestart_.empty()) refuseUnloadable();  // not yet stopping them for a reload
    if (pending_.isEmpty()) return;
    bool waiting = false;
    for (const QPointer<RunController>& run : runs_) {
        if (!run || !run->running()) continue;
        waiting = true;
        if (std::find(toRestart_.begin(), toRestart_.end(), run) == toRestart_.end()) toRestart_.push_back(run);
        if (run->state() != "stopping") run->stopAll();
    }
    if (!waiting) reloadPending();
}

void PluginReloader::refuseUnloadable() {
    QStringList lines;
    for (const QString& file : QStringList(pending_)) {
        const std::optional<std::string> refusal = reloadRefusal(*host_, file.toStdString());
        if (!refusal) continue;
        pending_.removeOne(file);
        failures_[file] = *refusal;
        lines.append(tr("%1 kept: %2").arg(QFileInfo(file).fileName(), QString::fromStdString(*refusal)));
    }
    if (lines.isEmpty()) return;
    for (const QPointer<RunController>& run : runs_) {
        if (run) showFailures(run->document());
    }
    Q_EMIT reloaded(lines.join('\n'), false);
}

void PluginReloader::reloadPending() {
    QStringList lines;
    bool ok = true;
    for (const QString& file : std::exchange(pending_, {})) {
        try {
            const PluginReloadReport report = host_->reload(file.toStdString());
            failures_.erase(file);
            lines.append(describe(report, host_->find(file.toStdString())->version));
        } catch (const std::exception& e) {
            failures_[file] = e.what();
            lines.append(tr("%1 kept: %2").arg(QFileInfo(file).fileName(), QString::fromStdString(e.what())));
            ok = false;
        }
    }
    for (const QPointer<RunController>& run : runs_) {
        if (!run || !run->document()) continue;
        run->document()->revalidate();
        showFailures(run->document());
    }
    Q_EMIT reloaded(lines.join('\n'), ok);
    for (const QPointer<RunController>& run : std::exchange(toRestart_, {})) {
        if (run && !run->running()) run->start(run->schedulerText());
    }
}

QString PluginReloader::describe(const PluginReloadReport& report, const std::string& version) {
    QStringList parts;
    if (!report.added.empty()) parts.append(tr("added %1").arg(typeList(report.added)));
    if (!report.removed.empty()) parts.append(tr("removed %1").arg(typeList(report.removed)));
    if (!report.changed.empty()) parts.append(tr("changed %1").arg(typeList(report.changed)));
    if (!report.unchanged.empty()) parts.append(tr("%n unchanged", nullptr, static_cast<int>(report.unchanged.size())));
    return tr("%1 %2 reloaded: %3")
        .arg(QString::fromStdString(report.file.filename().string()), QString::fromStdString(version), parts.join("; "));
}

void PluginReloader::showFailures(GraphDocument* document) const {
    if (!document) return;
    std::vector<GraphError> problems;
    for (const auto& [file, why] : failures_) problems.push_back(GraphError{"", "", "", why + " (the previous build stays loaded)"});
    document->problems()->setProblems(kPluginProblems, std::move(problems));
}

}  // namespace isochron::ui
