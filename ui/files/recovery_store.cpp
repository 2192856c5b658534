#include "ui/files/recovery_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace isochron::ui {

// Tests wait for "recovery saved" lines (QT_LOGGING_RULES="isochron.ui.info=true").
Q_LOGGING_CATEGORY(recoveryLog, "isochron.ui", QtWarningMsg)

namespace {
constexpr const char* kFormat = "isochron-recovery/1";
}  // namespace

RecoveryStore::RecoveryStore(QObject* parent)
    : QObject(parent), folder_(defaultFolder()), id_(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
    timer_.setInterval(3000);
    connect(&timer_, &QTimer::timeout, this, &RecoveryStore::writeNow);
    timer_.start();
}

RecoveryStore::~RecoveryStore() {
    // A window that goes away normally with unsaved changes was asked about them: the user chose.
    if (!document_ || !document_->modified()) forget();
}

QString RecoveryStore::defaultFolder() {
    const QString fromEnvironment = qEnvironmentVariable("ISOCHRON_RECOVERY_DIR");
    if (!fromEnvironment.isEmpty()) return QDir(fromEnvironment).absolutePath();
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/isochron/recovery";
}

void RecoveryStore::setDocument(GraphDocument* document) {
    if (document_ == document) return;
    if (document_) disconnect(document_, nullptr, this, nullptr);
    document_ = document;
    if (document_) {
        // A save makes the graph clean: the recovery file is no longer needed.
        connect(document_, &GraphDocument::modifiedChanged, this, [this] {
            if (document_ && !document_->modified()) forget();
        });
        for (auto signal : {&GraphDocument::revisionChanged, &GraphDocument::graphFieldsChanged, &GraphDocument::historyChanged}) {
            connect(document_, signal, this, [this] { changed_ = true; });
        }
        changed_ = true;
    }
    Q_EMIT documentChanged();
}

void RecoveryStore::setInterval(int milliseconds) {
    milliseconds = std::clamp(milliseconds, 500, 60000);
    if (milliseconds == timer_.interval()) return;
    timer_.setInterval(milliseconds);
    Q_EMIT intervalChanged();
}

QString RecoveryStore::pathOf(const QString& id, const char* suffix) const { return folder_ + "/" + id + suffix; }

void RecoveryStore::writeNow() {
    if (!document_ || !document_->modified() || !changed_) return;
    if (!lock_) {
        if (!QDir().mkpath(folder_)) {
            qWarning("isochron: warning: cannot create the recovery folder %s", qPrintable(folder_));
            return;
        }
        lock_ = std::make_unique<QLockFile>(pathOf(id_, ".lock"));
        if (!lock_->tryLock(0)) {
            qWarning("isochron: warning: cannot lock %s", qPrintable(lock_->fileName()));
            lock_.reset();
            return;
        }
    }
    const QString graphPath = pathOf(id_, ".isograph.json");
    if (QString error = document_->writeRecovery(graphPath); !error.isEmpty()) {
        qWarning("isochron: warning: recovery file: %s", qPrintable(error));
        return;
    }
    QSaveFile note(pathOf(id_, ".json"));
    const QJsonObject fields{{"format", kFormat},
                             {"file", document_->filePath()},
                             {"base_directory", document_->baseDirectory()},
                             {"saved_at", QDateTime::currentDateTime().toString(Qt::ISODate)},
                             {"name", document_->graphName()},
                             {"nodes", document_->nodeCount()}};
    if (!note.open(QIODevice::WriteOnly) || note.write(QJsonDocument(fields).toJson()) < 0 || !note.commit()) {
        qWarning("isochron: warning: cannot write %s", qPrintable(note.fileName()));
        return;
    }
    changed_ = false;
    qCInfo(recoveryLog, "recovery saved: %s (%d nodes)", qPrintable(graphPath), document_->nodeCount());
}

void RecoveryStore::removeFiles(const QString& id) {
    QFile::remove(pathOf(id, ".isograph.json"));
    QFile::remove(pathOf(id, ".json"));
}

void RecoveryStore::forget() {
    changed_ = true;  // a later edit writes again
    if (!lock_) return;
    removeFiles(id_);
    lock_->unlock();  // removes the lock file
    lock_.reset();
}

QVariantList RecoveryStore::orphans() {
    QVariantList list;
    const QDir dir(folder_);
    for (const QFileInfo& info : dir.entryInfoList({"*.json"}, QDir::Files, QDir::Time)) {
        if (info.fileName().endsWith(".isograph.json")) continue;
        const QString id = info.fileName().chopped(5);
        if (id == id_) continue;
        if (!claimed_.count(id)) {
            auto lock = std::make_unique<QLockFile>(pathOf(id, ".lock"));
            if (!lock->tryLock(0)) continue;  // its editor is alive (or another window claimed it)
            claimed_[id] = std::move(lock);
        }
        QFile file(info.absoluteFilePath());
        const QJsonObject note = file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
        if (note.value("format").toString() != kFormat || !QFileInfo::exists(pathOf(id, ".isograph.json"))) continue;
        list.append(QVariantMap{{"id", id},
                                {"file", note.value("file").toString()},
                                {"name", note.value("name").toString()},
                                {"savedAt", note.value("saved_at").toString()},
                                {"nodes", note.value("nodes").toInt()}});
    }
    return list;
}

bool RecoveryStore::restore(const QString& id) {
    if (!document_) return false;
    QFile file(pathOf(id, ".json"));
    const QJsonObject note = file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
    if (!document_->restoreRecovery(pathOf(id, ".isograph.json"), note.value("file").toString(), note.value("base_directory").toString())) return false;
    discard(id);
    writeNow();  // this window's own recovery file takes over at once
    return true;
}

void RecoveryStore::discard(const QString& id) {
    removeFiles(id);
    auto it = claimed_.find(id);
    if (it != claimed_.end()) {
        it->second->unlock();
        claimed_.erase(it);
    } else {
        QFile::remove(pathOf(id, ".lock"));
    }
}

}  // namespace isochron::ui
