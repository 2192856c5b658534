// The File > Open Recent list, kept in the user's settings between runs.
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
public:
    explicit RecentFiles(QObject* parent = nullptr);

    QStringList paths() const { return paths_; }
    /// Put a file at the top (a path or a file: URL).
    Q_INVOKABLE void add(const QString& pathOrUrl);
    /// Forget every file.
    Q_INVOKABLE void clear();

Q_SIGNALS:
    void pathsChanged();

private:
    void store();
    QStringList paths_;
};

}  // namespace isochron::ui
