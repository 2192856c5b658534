#include "ui/files/folder_model.h"

#include <QDir>
#include <QFileInfo>

#include "ui/files/typed_path.h"

namespace isochron::ui {

FolderModel::FolderModel(QObject* parent) : QAbstractListModel(parent), folder_(QDir::homePath()) {}

int FolderModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(entries_.size()); }

QVariant FolderModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Entry& e = entries_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case NameRole: return e.name;
        case PathRole: return e.path;
        case IsFolderRole: return e.isFolder;
        case SizeRole: return e.size;
        case ModifiedRole: return e.modified;
        default: return {};
    }
}

QHash<int, QByteArray> FolderModel::roleNames() const {
    return {{NameRole, "name"}, {PathRole, "path"}, {IsFolderRole, "isFolder"}, {SizeRole, "size"}, {ModifiedRole, "modified"}};
}

void FolderModel::setFolder(const QString& path) {
    const QString absolute = resolveTypedPath(path, folder_);
    if (!QFileInfo(absolute).isDir()) {
        error_ = tr("%1 is not a folder").arg(absolute);
        Q_EMIT folderChanged();
        return;
    }
    error_.clear();
    if (absolute == folder_) {
        refresh();
        Q_EMIT folderChanged();
        return;
    }
    folder_ = absolute;
    refresh();
    Q_EMIT folderChanged();
}

QString FolderModel::parentFolder() const {
    QDir dir(folder_);
    return dir.cdUp() ? dir.absolutePath() : QString();
}

void FolderModel::setNameFilters(const QStringList& filters) {
    if (filters == nameFilters_) return;
    nameFilters_ = filters;
    refresh();
    Q_EMIT nameFiltersChanged();
}

void FolderModel::refresh() {
    beginResetModel();
    entries_.clear();
    const QDir dir(folder_);
    const auto sorting = QDir::Name | QDir::IgnoreCase;
    for (const QFileInfo& info : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, sorting)) {
        entries_.push_back({info.fileName(), info.absoluteFilePath(), true, 0, info.lastModified()});
    }
    for (const QFileInfo& info : dir.entryInfoList(nameFilters_, QDir::Files, sorting)) {
        entries_.push_back({info.fileName(), info.absoluteFilePath(), false, info.size(), info.lastModified()});
    }
    endResetModel();
    Q_EMIT countChanged();
}

QString FolderModel::resolve(const QString& typed) const { return resolveTypedPath(typed, folder_); }

QString FolderModel::withSuffix(const QString& path, const QString& suffix) const {
    QStringList accepted;
    for (const QString& filter : nameFilters_) {
        if (filter.startsWith("*.")) accepted.append(filter.mid(1));
    }
    return withDefaultSuffix(path, suffix, accepted);
}

bool FolderModel::isFolder(const QString& path) const { return QFileInfo(path).isDir(); }
bool FolderModel::isFile(const QString& path) const { return QFileInfo(path).isFile(); }
QString FolderModel::home() const { return QDir::homePath(); }

QString FolderModel::makeFolder(const QString& path) const {
    if (path.isEmpty()) return tr("No folder named");
    if (QFileInfo(path).isDir()) return {};
    // The nearest path above that exists must be a folder: a file there cannot hold one.
    for (QFileInfo above(path); !above.isRoot(); above = QFileInfo(above.absolutePath())) {
        if (above.exists() && !above.isDir()) return tr("Cannot create %1: %2 is a file").arg(path, above.absoluteFilePath());
        if (above.exists()) break;
    }
    if (!QDir().mkpath(path)) return tr("Cannot create the folder %1 (no permission to write there?)").arg(path);
    return {};
}

}  // namespace isochron::ui
