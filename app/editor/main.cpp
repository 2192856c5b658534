// isochron: the desktop editor.
//   isochron [GRAPH] [--run] [--plugin FILE]... [--sandbox[=NAME,...]] [--watchdog SECONDS] [--probe WIRE:scope|spectrum]... [--dark] [--report FILE] [--quit-when-done] [--window-size WxH]
//            [--compare SCHEDULER,... [--compare-seconds S]] [--quit-after SECONDS] [--startup-time]
//            [--measure-pan-zoom SECONDS]
// opens GRAPH (or an empty canvas), optionally runs it at once; --report writes each run's report
// (the runner's JSON); the rest are for smoke tests, screenshots and measurements. --help and
// --version need no display.
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QFileInfo>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QQuickStyle>
#include <QTimer>
#include <QtQml/QQmlExtensionPlugin>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "app/editor/command_line.h"
#include "app/editor/plugin_options.h"
#include "app/editor/quit_on_signals.h"
#include "app/editor/view_benchmark.h"
#include "engine/files/standard_streams.h"
#include "engine/plugins/plugin_crash_note.h"
#include "engine/plugins/plugin_discovery.h"
#include "engine/plugins/plugin_error.h"
#include "engine/plugins/plugin_host.h"
#include "nodes/register_builtin_nodes.h"
#include "ui/plugins/plugin_reloader.h"
#include "ui/run/run_controller.h"

Q_IMPORT_QML_PLUGIN(Isochron_UiPlugin)

int main(int argc, char** argv) {
    isochron::keepStandardStreamsOpen();
    QElapsedTimer sinceStart;
    sinceStart.start();
    isochron::editor::answerHelpOrVersion(argc, argv);
    isochron::editor::PluginOptions pluginOptions;
    try {
        pluginOptions = isochron::editor::takePluginOptions(argc, argv);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "isochron: %s\n", e.what());
        return 1;
    }
    QGuiApplication app(argc, argv);
    QGuiApplication::setOrganizationName("Isochron");
    QGuiApplication::setApplicationName(isochron::editor::kEditorName);
    QGuiApplication::setApplicationVersion(isochron::editor::kEditorVersion);
    isochron::editor::quitOnSignals(app);

    isochron::editor::CommandLine commandLine;
    QCommandLineParser& parser = commandLine.parser;
    parser.process(app);

    // Plugins' operators join the built-ins in the palette. Lives longer than the QML engine, so
    // no operator of a plugin outlives its code.
    isochron::PluginHost plugins(isochron::builtinRegistry());
    isochron::installPluginExitCatch();
    try {
        for (const QString& file : pluginOptions.files) plugins.load(file.toStdString(), pluginOptions.hostingOf(file.toStdString()));
    } catch (const isochron::PluginError& e) {
        qCritical("isochron: %s", e.what());
        return 1;
    }
    for (const auto& file : isochron::discoverPlugins()) {
        if (plugins.find(file)) continue;
        try {
            plugins.load(file, pluginOptions.hostingOf(file));
        } catch (const isochron::PluginError& e) {
            qWarning("isochron: warning: %s", e.what());
        }
    }
    // A misspelt name would leave that plugin in-process, where its crash ends the editor.
    if (const QString unknown = pluginOptions.unknownSandboxName(plugins); !unknown.isEmpty()) {
        qCritical("isochron: %s", qPrintable(unknown));
        return 1;
    }

    // Reloads a plugin when its file changes (or on Run > Reload Plugins); QML finds it as the
    // PluginReloader singleton. Outlives the QML engine, and is gone before the host.
    isochron::ui::PluginReloader reloader(&plugins);
    QObject::connect(&reloader, &isochron::ui::PluginReloader::reloaded, &app, [](const QString& summary, bool ok) {
        if (ok) qInfo("isochron: %s", qPrintable(summary));
        else qWarning("isochron: warning: %s", qPrintable(summary));
    });

    QQuickStyle::setStyle("Fusion");
    QQmlApplicationEngine engine;
    engine.addImportPath("qrc:/qt/qml");
    QVariantMap initial;
    if (!parser.positionalArguments().isEmpty()) initial["initialGraph"] = QFileInfo(parser.positionalArguments().front()).absoluteFilePath();
    engine.setInitialProperties(initial);
    engine.load(QUrl("qrc:/qt/qml/Isochron/Ui/qml/Main.qml"));
    if (engine.rootObjects().isEmpty()) {
        qCritical("isochron: the editor window could not be loaded (the QML errors above say why; ./scripts/quickstart.sh installs every module it needs)");
        return 1;
    }
    QObject* window = engine.rootObjects().front();
    if (parser.isSet(commandLine.dark)) window->setProperty("darkTheme", true);
    if (parser.isSet(commandLine.windowSize)) {
        const QStringList size = parser.value(commandLine.windowSize).split('x');
        if (size.size() != 2 || size[0].toInt() <= 0 || size[1].toInt() <= 0) {
            qCritical("isochron: --window-size needs WIDTHxHEIGHT, e.g. 1920x1080");
            return 1;
        }
        window->setProperty("x", 0);
        window->setProperty("y", 0);
        window->setProperty("width", size[0].toInt());
        window->setProperty("height", size[1].toInt());
    }
    if (auto* quickWindow = qobject_cast<QQuickWindow*>(window); quickWindow && parser.isSet(commandLine.startupTime)) {
        QObject::connect(quickWindow, &QQuickWindow::frameSwapped, &app, [&sinceStart] {
            static bool reported = false;
            if (reported) return;
            reported = true;
            qInfo("isochron: first frame after %lld ms", static_cast<long long>(sinceStart.elapsed()));
        });
    }
    if (parser.isSet(commandLine.measurePanZoom)) {
        auto* quickWindow = qobject_cast<QQuickWindow*>(window);
        auto* canvas = qvariant_cast<QObject*>(window->property("graphCanvas"));
        if (!quickWindow || !canvas) return 1;
        new isochron::editor::ViewBenchmark(quickWindow, canvas, parser.value(commandLine.measurePanZoom).toDouble());
    }
    auto* run = qvariant_cast<isochron::ui::RunController*>(window->property("runController"));
    if (run) {
        run->setPluginHost(&plugins);
        run->setSandboxWatchdog(pluginOptions.watchdog);  // unset: each start picks it from the graph
        run->setReportPath(parser.value(commandLine.report));  // checked at each start, as isochron-run checks it
    }
    if (run && (parser.isSet(commandLine.report) || parser.isSet(commandLine.quitWhenDone))) {
        const QString reportPath = parser.value(commandLine.report);
        const bool quitWhenDone = parser.isSet(commandLine.quitWhenDone);
        QObject::connect(run, &isochron::ui::RunController::runFinished, &app, [reportPath, quitWhenDone](const QVariantMap& summary) {
            if (!reportPath.isEmpty()) {
                QFile file(reportPath);
                if (file.open(QIODevice::WriteOnly | QIODevice::Truncate)) file.write(QJsonDocument::fromVariant(summary).toJson());
                else qCritical("isochron: cannot write %s", qPrintable(reportPath));
            }
            if (quitWhenDone) QCoreApplication::quit();
        });
        QObject::connect(run, &isochron::ui::RunController::stateChanged, &app, [run, quitWhenDone] {
            if (quitWhenDone && run->state() == "failed") {
                qCritical("isochron: %s", qPrintable(run->message()));
                QCoreApplication::exit(2);
            }
        });
    }
    for (const QString& probe : parser.values(commandLine.probe)) {
        const qsizetype colon = probe.lastIndexOf(':');
        const QString why = run && colon > 0 ? run->addProbe(probe.left(colon), probe.mid(colon + 1)) : QStringLiteral("expected WIRE:KIND, e.g. a.out>b.in:scope");
        if (!why.isEmpty()) {
            qCritical("isochron: --probe %s: %s", qPrintable(probe), qPrintable(why));
            return 1;
        }
    }
    if (run && parser.isSet(commandLine.compare)) {
        window->setProperty("bottomTab", 2);
        run->compare(parser.value(commandLine.compare).split(',', Qt::SkipEmptyParts), parser.value(commandLine.compareSeconds).toDouble());
    } else if (run && parser.isSet(commandLine.run)) {
        if (run->localization()->available()) window->setProperty("bottomTab", 3);  // the localization view
        run->start();
    }
    if (parser.isSet(commandLine.quitAfter)) {
        bool ok = false;
        const double seconds = parser.value(commandLine.quitAfter).toDouble(&ok);
        if (!ok || seconds < 0) {
            qCritical("isochron: --quit-after needs a number of seconds");
            return 1;
        }
        QTimer::singleShot(static_cast<int>(seconds * 1000), &app, &QCoreApplication::quit);
    }
    const int status = app.exec();
    // A run's start left behind runs on inside a plugin: unloading the plugins as main's objects go
    // would pull its code from under it.
    if (isochron::ui::RunController::anyStartLeftBehind()) std::_Exit(status);
    return status;
}
