#include "ui/files/sample_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace isochron::ui {

QString SampleCatalog::locateFolder() {
    const QString fromEnvironment = qEnvironmentVariable("ISOCHRON_SAMPLES");
    if (!fromEnvironment.isEmpty() && QDir(fromEnvironment).exists()) return QDir(fromEnvironment).absolutePath();
    const QString installed = QCoreApplication::applicationDirPath() + "/../share/isochron/samples";
    if (QDir(installed).exists()) return QDir(installed).absolutePath();
    return QStringLiteral(ISOCHRON_SOURCE_SAMPLES);
}

SampleCatalog::SampleCatalog(QObject* parent) : QObject(parent), folder_(locateFolder()) {
    QStringList paths;
    QDirIterator files(folder_, {"*.isograph.json"}, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) paths.append(files.next());
    std::sort(paths.begin(), paths.end(), [](const QString& a, const QString& b) {
        const bool aQuick = a.contains("quickstart"), bQuick = b.contains("quickstart");
        return aQuick != bQuick ? aQuick : a < b;
    });
    for (const QString& path : paths) {
        QFile file(path);
        QString title = QFileInfo(path).fileName().remove(".isograph.json");
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
            if (root.contains("interface")) continue;  // a part other samples use as a subgraph
            const QString name = root.value("name").toString();
            if (!name.isEmpty()) title = name;
        }
        samples_.append(QVariantMap{{"title", title}, {"path", path}});
    }
}

}  // namespace isochron::ui
