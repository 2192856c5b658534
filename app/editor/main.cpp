// isochron: the desktop editor.
//   isochron [GRAPH] [--run] [--plugin FILE]... [--sandbox] [--probe WIRE:scope|spectrum]... [--dark] [--report FILE] [--quit-when-done] [--window-size WxH]
//            [--compare SCHEDULER,... [--compare-seconds S]] [--quit-after SECONDS] [--startup-time]
//            [--measure-pan-zoom SECONDS]
// opens GRAPH (or an empty canvas), optionally runs it at once; --report writes each run's report
// (the runner's JSON); the rest are for smoke tests, screenshots and measurements.
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

#include <cstdlib>

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

namespace {

// QGuiApplication takes "-plugin X" and "--plugin X" for itself (Qt's generic input plugins), so
// the editor's --plugin options are taken out of argv before it sees them.
QStringList takePluginOptions(int& argc, char** argv) {
    QStringList files;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const QString argument = QString::fromLocal8Bit(argv[i]);
        if ((argument == "--plugin" || argument == "-plugin") && i + 1 < argc) {
            files.append(QString::fromLocal8Bit(argv[++i]));
        } else if (argument.startsWith("--plugin=")) {
            files.append(argument.mid(9));
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    argv[argc] = nullptr;
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    isochron::keepStandardStreamsOpen();
    QElapsedTimer sinceStart;
    sinceStart.start();
    const QStringList pluginFiles = takePluginOptions(argc, argv);
    QGuiApplication app(argc, argv);
    QGuiApplication::setOrganizationName("Isochron");
    QGuiApplication::setApplicationName("isochron");
    QGuiApplication::setApplicationVersion("0.1.0");
    isochron::editor::quitOnSignals(app);

    QCommandLineParser parser;
    parser.setApplicationDescription("Isochron: edit, run and compare stream graphs.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("graph", "A graph file (*.isograph.json) to open.", "[GRAPH]");
    const QCommandLineOption runOption("run", "Run the graph once it is open.");
    const QCommandLineOption darkOption("dark", "Use the dark theme (it is remembered).");
    const QCommandLineOption quitOption("quit-after", "Quit after this many seconds.", "seconds");
    const QCommandLineOption sizeOption("window-size", "Open the window at the top left with this size.", "WxH");
    const QCommandLineOption startupOption("startup-time", "Print the time from start to the first frame.");
    const QCommandLineOption reportOption("report", "Write the report of each run (JSON, as isochron-run --report).", "file");
    const QCommandLineOption quitWhenDoneOption("quit-when-done", "Quit when the first run ends.");
    const QCommandLineOption pluginOption("plugin", "Load an operator plugin (also: ISOCHRON_PLUGIN_PATH and the user's plugin folder).", "file");
    const QCommandLineOption sandboxOption("sandbox", "Run every plugin's nodes each in a process of its own (a crash or hang disables that node only).");
    const QCommandLineOption compareOption("compare", "Compare schedulers (comma-separated) on the graph at once.", "schedulers");
    const QCommandLineOption compareSecondsOption("compare-seconds", "Seconds per scheduler in a comparison (default 5).", "seconds", "5");
    const QCommandLineOption probeOption("probe", "Probe a wire (from.port>to.port) with a scope or a spectrum (kind).", "wire:kind");
    const QCommandLineOption panZoomOption("measure-pan-zoom", "Pan and zoom every frame for a while, print the frame rate, quit.", "seconds");
    parser.addOptions({runOption, darkOption, quitOption, sizeOption, startupOption, reportOption, quitWhenDoneOption, panZoomOption, probeOption, pluginOption, sandboxOption,
                       compareOption, compareSecondsOption});
    parser.process(app);

    // Plugins' operators join the built-ins in the palette. Lives longer than the QML engine, so
    // no operator of a plugin outlives its code.
    isochron::PluginHost plugins(isochron::builtinRegistry());
    isochron::installPluginExitCatch();
    isochron::PluginHosting hosting;
    hosting.sandboxed = parser.isSet(sandboxOption);
    try {
        for (const QString& file : pluginFiles) plugins.load(file.toStdString(), hosting);
    } catch (const isochron::PluginError& e) {
        qCritical("isochron: %s", e.what());
        return 1;
    }
    for (const auto& file : isochron::discoverPlugins()) {
        if (plugins.find(file)) continue;
        try {
            plugins.load(file, hosting);
        } catch (const isochron::PluginError& e) {
            qWarning("isochron: warning: %s", e.what());
        }
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
    if (parser.isSet(darkOption)) window->setProperty("darkTheme", true);
    if (parser.isSet(sizeOption)) {
        const QStringList size = parser.value(sizeOption).split('x');
        if (size.size() != 2 || size[0].toInt() <= 0 || size[1].toInt() <= 0) {
            qCritical("isochron: --window-size needs WIDTHxHEIGHT, e.g. 1920x1080");
            return 1;
        }
        window->setProperty("x", 0);
        window->setProperty("y", 0);
        window->setProperty("width", size[0].toInt());
        window->setProperty("height", size[1].toInt());
    }
    if (auto* quickWindow = qobject_cast<QQuickWindow*>(window); quickWindow && parser.isSet(startupOption)) {
        QObject::connect(quickWindow, &QQuickWindow::frameSwapped, &app, [&sinceStart] {
            static bool reported = false;
            if (reported) return;
            reported = true;
            qInfo("isochron: first frame after %lld ms", static_cast<long long>(sinceStart.elapsed()));
        });
    }
    if (parser.isSet(panZoomOption)) {
        auto* quickWindow = qobject_cast<QQuickWindow*>(window);
        auto* canvas = qvariant_cast<QObject*>(window->property("graphCanvas"));
        if (!quickWindow || !canvas) return 1;
        new isochron::editor::ViewBenchmark(quickWindow, canvas, parser.value(panZoomOption).toDouble());
    }
    auto* run = qvariant_cast<isochron::ui::RunController*>(window->property("runController"));
    if (run) {
        run->setPluginHost(&plugins);
        run->setReportPath(parser.value(reportOption));  // checked at each start, as isochron-run checks it
    }
    if (run && (parser.isSet(reportOption) || parser.isSet(quitWhenDoneOption))) {
        const QString reportPath = parser.value(reportOption);
        const bool quitWhenDone = parser.isSet(quitWhenDoneOption);
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
    for (const QString& probe : parser.values(probeOption)) {
        const qsizetype colon = probe.lastIndexOf(':');
        const QString why = run && colon > 0 ? run->addProbe(probe.left(colon), probe.mid(colon + 1)) : QStringLiteral("expected WIRE:KIND, e.g. a.out>b.in:scope");
        if (!why.isEmpty()) {
            qCritical("isochron: --probe %s: %s", qPrintable(probe), qPrintable(why));
            return 1;
        }
    }
    if (run && parser.isSet(compareOption)) {
        window->setProperty("bottomTab", 2);
        run->compare(parser.value(compareOption).split(',', Qt::SkipEmptyParts), parser.value(compareSecondsOption).toDouble());
    } else if (run && parser.isSet(runOption)) {
        if (run->localization()->available()) window->setProperty("bottomTab", 3);  // the localization view
        run->start();
    }
    if (parser.isSet(quitOption)) {
        bool ok = false;
        const double seconds = parser.value(quitOption).toDouble(&ok);
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
