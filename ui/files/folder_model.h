// One folder's entries for the editor's own file dialog (FilePicker.qml): sub-folders first, then
// the files matching the name filters, each by name. The dialog is ours rather than QtQuick.Dialogs'
// so that it behaves the same everywhere: "Save" on the save button, typed absolute and "~" paths,
// Enter to accept, overwrite confirmation, and no QML module that may be missing.
#pragma once

#include <QAbstractListModel>
#include <QDateTime>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include <vector>

namespace isochron::ui {

/// Entries of `folder` (listed once a folder is set or refresh() is called). Hidden entries are left out. [ui thread]
class FolderModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    /// The folder listed, absolute; setting a path that is not a folder leaves it and sets `error`.
    Q_PROPERTY(QString folder READ folder WRITE setFolder NOTIFY folderChanged)
    /// Its parent ("" at the root).
    Q_PROPERTY(QString parentFolder READ parentFolder NOTIFY folderChanged)
    /// Which files to list, e.g. ["*.isograph.json"]; empty lists every file.
    Q_PROPERTY(QStringList nameFilters READ nameFilters WRITE setNameFilters NOTIFY nameFiltersChanged)
    /// Why the last folder asked for could not be listed, or empty.
    Q_PROPERTY(QString error READ error NOTIFY folderChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum Role { NameRole = Qt::UserRole + 1, PathRole, IsFolderRole, SizeRole, ModifiedRole };

    explicit FolderModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString folder() const { return folder_; }
    void setFolder(const QString& path);
    QString parentFolder() const;
    QStringList nameFilters() const { return nameFilters_; }
    void setNameFilters(const QStringList& filters);
    QString error() const { return error_; }

    /// List the folder again (files may have come or gone).
    Q_INVOKABLE void refresh();
    /// The absolute path `typed` names from this folder (typed_path.h: absolute, "~", relative).
    Q_INVOKABLE QString resolve(const QString& typed) const;
    /// `path` with `suffix` unless it ends with it or with a suffix of the name filters.
    Q_INVOKABLE QString withSuffix(const QString& path, const QString& suffix) const;
    Q_INVOKABLE bool isFolder(const QString& path) const;
    Q_INVOKABLE bool isFile(const QString& path) const;
    /// The user's home folder.
    Q_INVOKABLE QString home() const;
    /// Create the folder `path` and any missing folders above it (mkdir -p); an error message, or
    /// empty when the folder exists afterwards.
    Q_INVOKABLE QString makeFolder(const QString& path) const;

Q_SIGNALS:
    void folderChanged();
    void nameFiltersChanged();
    void countChanged();

private:
    struct Entry {
        QString name, path;
        bool isFolder = false;
        qint64 size = 0;
        QDateTime modified;
    };
    std::vector<Entry> entries_;
    QString folder_;
    QStringList nameFilters_;
    QString error_;
};

}  // namespace isochron::ui
