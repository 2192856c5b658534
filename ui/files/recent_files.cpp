#include "ui/files/recent_files.h"

#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace isochron::ui {

namespace {
constexpr int kMaximum = 10;
const char* const kKey = "files/recent";
const char* const kFolderKey = "files/lastFolder";
}  // namespace

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {
    for (const QString& path : QSettings().value(kKey).toStringList()) {
        if (QFileInfo::exists(path)) paths_.append(path);
    }
    const QString folder = QSettings().value(kFolderKey).toString();
    if (QFileInfo(folder).isDir()) lastFolder_ = folder;
}

QStringList RecentFiles::folders() const {
    QStringList list;
    for (const QString& path : paths_) {
        const QString folder = QFileInfo(path).absolutePath();
        if (!list.contains(folder)) list.append(folder);
    }
    return list;
}

void RecentFiles::setLastFolder(const QString& folder) {
    const QString absolute = folder.isEmpty() ? QString() : QFileInfo(folder).absoluteFilePath();
    if (absolute == lastFolder_) return;
    lastFolder_ = absolute;
    QSettings().setValue(kFolderKey, lastFolder_);
    Q_EMIT lastFolderChanged();
}

void RecentFiles::add(const QString& pathOrUrl) {
    const QString path = QFileInfo(pathOrUrl.startsWith("file:") ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl).absoluteFilePath();
    paths_.removeAll(path);
    paths_.prepend(path);
    while (paths_.size() > kMaximum) paths_.removeLast();
    store();
    setLastFolder(QFileInfo(path).absolutePath());
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
