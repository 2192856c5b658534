// Crash recovery: while a window's graph has unsaved changes, it is written every few seconds to
// a recovery file under the user's data folder ($XDG_DATA_HOME/isochron/recovery, usually
// ~/.local/share/isochron/recovery), next to a note saying which file it was and a lock the
// window holds. A clean save, or closing without saving on purpose, removes them. At the next
// start, files whose lock no live editor holds (it crashed or was killed) are offered back.
//
// Files per window: <id>.isograph.json (the graph; relative paths as in the original),
// <id>.json ({"format": "isochron-recovery/1", "file", "base_directory", "saved_at", "name"}),
// <id>.lock (QLockFile: the owner's pid, stale once that process is gone).
#pragma once

#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <map>
#include <memory>

#include "ui/model/graph_document.h"

namespace isochron::ui {

/// One window's recovery file, and the orphans of editors that died. [ui thread]
class RecoveryStore : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::GraphDocument* document READ document WRITE setDocument NOTIFY documentChanged)
    /// Milliseconds between checks for changes to write (500 ... 60000; default 3000).
    Q_PROPERTY(int interval READ interval WRITE setInterval NOTIFY intervalChanged)
    /// The recovery folder.
    Q_PROPERTY(QString folder READ folder CONSTANT)
public:
    explicit RecoveryStore(QObject* parent = nullptr);
    ~RecoveryStore() override;

    GraphDocument* document() const { return document_; }
    void setDocument(GraphDocument* document);
    int interval() const { return timer_.interval(); }
    void setInterval(int milliseconds);
    /// $ISOCHRON_RECOVERY_DIR when set (tests), else <generic data folder>/isochron/recovery.
    static QString defaultFolder();
    QString folder() const { return folder_; }

    /// The graphs of editors that ended without saving, newest first: [{id, file (original, "" if
    /// untitled), name, savedAt (ISO 8601), nodes}]. Claims them (takes their locks), so another
    /// window starting now does not offer them too.
    Q_INVOKABLE QVariantList orphans();
    /// Open orphan `id` in this window's document (modified, under its original file name) and
    /// delete its files. False, with the document's lastError, when it cannot be read.
    Q_INVOKABLE bool restore(const QString& id);
    /// Delete orphan `id`'s files.
    Q_INVOKABLE void discard(const QString& id);
    /// Write now if the graph changed since the last write (the timer does this).
    Q_INVOKABLE void writeNow();
    /// Remove this window's recovery files (the user chose not to keep the changes).
    Q_INVOKABLE void forget();

Q_SIGNALS:
    void documentChanged();
    void intervalChanged();

private:
    QString pathOf(const QString& id, const char* suffix) const;
    void removeFiles(const QString& id);

    QPointer<GraphDocument> document_;
    QString folder_;
    QString id_;                       // this window's files
    std::unique_ptr<QLockFile> lock_;  // held while this window has files
    bool changed_ = false;  // the graph changed since the last write
    QTimer timer_;
    std::map<QString, std::unique_ptr<QLockFile>> claimed_;  // orphans offered by this window
};

}  // namespace isochron::ui
