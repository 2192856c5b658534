#include "ui/files/dialog_support.h"

#include <QQmlComponent>
#include <QQmlEngine>
#include <QStringList>

namespace isochron::ui {

namespace {

struct RequiredModule {
    const char* uri;
    const char* debianPackage;
};

// What QtQuick.Dialogs' non-native implementation imports beyond the editor's own imports.
constexpr RequiredModule dialogModules[] = {
    {"QtQuick.Dialogs", "qml6-module-qtquick-dialogs"},
    {"Qt.labs.folderlistmodel", "qml6-module-qt-labs-folderlistmodel"},
    {"QtQuick.Controls.Fusion", "qml6-module-qtquick-controls"},
    {"QtQuick.Layouts", "qml6-module-qtquick-layouts"},
};

bool importable(QQmlEngine& engine, const char* uri) {
    QQmlComponent probe(&engine);
    probe.setData(QStringLiteral("import %1\nimport QtQml\nQtObject {}\n").arg(QLatin1String(uri)).toUtf8(), QUrl());
    return probe.isReady();
}

QString missingModulesMessage(QQmlEngine& engine) {
    QStringList missing;
    for (const auto& module : dialogModules) {
        if (!importable(engine, module.uri)) {
            missing.append(QStringLiteral("%1 (Debian package %2)").arg(QLatin1String(module.uri), QLatin1String(module.debianPackage)));
        }
    }
    if (missing.isEmpty()) return {};
    const bool several = missing.size() > 1;
    return QStringLiteral("File dialogs are unavailable: the QML module%1 %2 %3 not installed. Install %4 (./scripts/quickstart.sh does).")
        .arg(several ? "s" : "", missing.join(", "), several ? "are" : "is", several ? "them" : "it");
}

}  // namespace

DialogSupport::DialogSupport(QQmlEngine& engine) : problem_(missingModulesMessage(engine)) {
    if (!problem_.isEmpty()) qWarning("isochron: warning: %s", qPrintable(problem_));
}

DialogSupport* DialogSupport::create(QQmlEngine* qmlEngine, QJSEngine*) { return new DialogSupport(*qmlEngine); }

}  // namespace isochron::ui
