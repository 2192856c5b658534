// The File > Open Recent list and the folder file dialogs open in, kept in the user's settings
// between runs.
#pragma once

#include <QObject>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace isochron::ui {

/// Most recently opened or saved graph files, newest first, at most 10. [ui thread]
class RecentFiles : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QStringList paths READ paths NOTIFY pathsChanged)
    /// The folders of those files, newest first, each once.
    Q_PROPERTY(QStringList folders READ folders NOTIFY pathsChanged)
    /// The folder a file was last opened, saved or chosen in ("" before the first).
    Q_PROPERTY(QString lastFolder READ lastFolder WRITE setLastFolder NOTIFY lastFolderChanged)
public:
    explicit RecentFiles(QObject* parent = nullptr);

    QStringList paths() const { return paths_; }
    QStringList folders() const;
    QString lastFolder() const { return lastFolder_; }
    void setLastFolder(const QString& folder);
    /// Put a file at the top (a path or a file: URL); its folder becomes the last folder.
    Q_INVOKABLE void add(const QString& pathOrUrl);
    /// Forget every file.
    Q_INVOKABLE void clear();

Q_SIGNALS:
    void pathsChanged();
    void lastFolderChanged();

private:
    void store();
    QStringList paths_;
    QString lastFolder_;
};

}  // namespace isochron::ui
