#include "ui/files/sample_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <vector>

namespace isochron::ui {

QString SampleCatalog::locateFolder() {
    const QString fromEnvironment = qEnvironmentVariable("ISOCHRON_SAMPLES");
    if (!fromEnvironment.isEmpty() && QDir(fromEnvironment).exists()) return QDir(fromEnvironment).absolutePath();
    const QString installed = QCoreApplication::applicationDirPath() + "/../share/isochron/samples";
    if (QDir(installed).exists()) return QDir(installed).absolutePath();
    return QStringLiteral(ISOCHRON_SOURCE_SAMPLES);
}

SampleCatalog::SampleCatalog(QObject* parent) : QObject(parent), folder_(locateFolder()) {
    struct Sample {
        QString title, path, group;
    };
    std::vector<Sample> found;
    QDirIterator files(folder_, {"*.isograph.json"}, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        QFile file(path);
        QString title = QFileInfo(path).fileName().remove(".isograph.json");
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
            if (root.contains("interface")) continue;  // a part other samples use as a subgraph
            const QString name = root.value("name").toString();
            if (!name.isEmpty()) title = name;
        }
        const bool benchmark = QDir(folder_).relativeFilePath(path).startsWith("bench/");
        title = benchmark ? title.toUpper() : title.left(1).toUpper() + title.mid(1);
        found.push_back({title, path, benchmark ? tr("Benchmarks") : QString()});
    }
    std::sort(found.begin(), found.end(), [](const Sample& a, const Sample& b) {
        const bool aQuick = a.path.contains("quickstart"), bQuick = b.path.contains("quickstart");
        if (aQuick != bQuick) return aQuick;
        if (a.group != b.group) return a.group < b.group;
        return a.title.compare(b.title, Qt::CaseInsensitive) < 0;
    });
    for (const Sample& s : found) samples_.append(QVariantMap{{"title", s.title}, {"path", s.path}, {"group", s.group}});
}

}  // namespace isochron::ui
