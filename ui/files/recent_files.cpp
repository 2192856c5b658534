#include "ui/files/recent_files.h"

#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace isochron::ui {

namespace {
constexpr int kMaximum = 10;
const char* const kKey = "files/recent";
}  // namespace

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {
    for (const QString& path : QSettings().value(kKey).toStringList()) {
        if (QFileInfo::exists(path)) paths_.append(path);
    }
}

void RecentFiles::add(const QString& pathOrUrl) {
    const QString path = QFileInfo(pathOrUrl.startsWith("file:") ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl).absoluteFilePath();
    paths_.removeAll(path);
    paths_.prepend(path);
    while (paths_.size() > kMaximum) paths_.removeLast();
    store();
}

void RecentFiles::clear() {
    paths_.clear();
    store();
}

void RecentFiles::store() {
    QSettings().setValue(kKey, paths_);
    Q_EMIT pathsChanged();
}

}  // namespace isochron::ui
