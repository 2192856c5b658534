#include "ui/archive/archive_signals.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_time.h"
#include "engine/time/timebase.h"
#include "ui/archive/signal_envelope.h"
#include "ui/archive/stream_clip.h"

namespace isochron::ui {

/// One envelope to read: filled on the reader thread, taken over on the UI thread.
struct ArchiveSignals::Request {
    QString key;
    std::string path;
    ArchivedStreamInfo info;
    double from = 0, to = 0;
    int columns = 0;
    std::vector<EnvelopeColumn> envelope;
    QString error;
};

namespace {

QString envelopeKey(const QString& stream, double from, double to, int columns) {
    return QStringLiteral("%1|%2|%3|%4").arg(stream).arg(from, 0, 'g', 17).arg(to, 0, 'g', 17).arg(columns);
}

QVariantList toList(const std::vector<EnvelopeColumn>& envelope) {
    QVariantList list;
    list.reserve(static_cast<qsizetype>(envelope.size() * 2));
    const double none = std::numeric_limits<double>::quiet_NaN();
    for (const EnvelopeColumn& column : envelope) {
        list.append(column.stored ? double{column.min} : none);
        list.append(column.stored ? double{column.max} : none);
    }
    return list;
}

}  // namespace

ArchiveSignals::ArchiveSignals(QObject* parent) : QObject(parent) {
    playingWatch_.setInterval(100);
    connect(&playingWatch_, &QTimer::timeout, this, [this] { setPlaying(output_.playing()); });
}

ArchiveSignals::~ArchiveSignals() {
    if (reader_) {
        reader_->disconnect(this);
        reader_->wait();  // a read is bounded by the sample budget; it must not outlive this object
        delete reader_;
    }
}

void ArchiveSignals::setTimeline(ArchiveTimelineModel* timeline) {
    if (timeline == timeline_) return;
    if (timeline_) timeline_->disconnect(this);
    timeline_ = timeline;
    if (timeline_) connect(timeline_, &ArchiveTimelineModel::loaded, this, &ArchiveSignals::fileChanged);
    fileChanged();
    Q_EMIT timelineChanged();
}

void ArchiveSignals::fileChanged() {
    // What was read stays on screen until read again: a growing recording does not flicker. (Views
    // read again come out of stale_; the rest are let go once there are many.)
    if (stale_.size() > 2 * kCachedEnvelopes) stale_.clear();
    for (auto it = envelopes_.begin(); it != envelopes_.end(); ++it) stale_.insert(it.key(), it.value());
    envelopes_.clear();
    cacheOrder_.clear();
    pending_.clear();
    const QString path = timeline_ ? timeline_->path() : QString();
    if (path != filePath_) {  // another file: nothing read before is of it
        stale_.clear();
        lastRead_.clear();
        listenStore_.reset();
        filePath_ = path;
    }
    ++revision_;
    Q_EMIT envelopesChanged();
}

QVariantList ArchiveSignals::envelope(const QString& stream, double from, double to, int columns) {
    const QString key = envelopeKey(stream, from, to, columns);
    if (const auto found = envelopes_.constFind(key); found != envelopes_.constEnd()) return *found;
    const ArchivedStreamInfo* info = timeline_ ? timeline_->streamInfo(stream) : nullptr;
    if (!info || info->kind != ArchivedStreamInfo::Kind::Signal || columns <= 0 || to <= from) return {};
    const bool asked = std::any_of(pending_.begin(), pending_.end(), [&](const auto& r) { return r->key == key; });
    if (!asked) {
        // Only the newest view of a lane is worth reading: a zoom or pan makes the ones before it moot.
        std::erase_if(pending_, [&](const auto& r) { return QString::fromStdString(r->info.name) == stream; });
        auto request = std::make_shared<Request>();
        request->key = key;
        request->path = timeline_->path().toStdString();
        request->info = *info;
        request->from = from;
        request->to = to;
        request->columns = columns;
        pending_.push_back(request);
        readNext();
    }
    if (const auto found = stale_.constFind(key); found != stale_.constEnd()) return *found;
    const auto last = lastRead_.constFind(stream);
    if (last == lastRead_.constEnd()) return {};
    return toList(rescaleEnvelope(last->envelope, last->from, last->to, from, to, columns));
}

void ArchiveSignals::readNext() {
    if (reader_ || pending_.empty()) return;
    std::shared_ptr<Request> request = pending_.front();
    pending_.pop_front();
    reader_ = QThread::create([request] {
        try {
            ArchiveStore store(request->path, ArchiveAccess::Read);
            request->envelope = readSignalEnvelope(store, request->info, request->from, request->to, request->columns);
        } catch (const std::exception& e) {
            request->error = QString::fromStdString(e.what());
        }
    });
    connect(reader_, &QThread::finished, this, [this, request] { finish(request); });
    reader_->start();
}

void ArchiveSignals::finish(const std::shared_ptr<Request>& request) {
    reader_->deleteLater();
    reader_ = nullptr;
    if (timeline_ && request->path == timeline_->path().toStdString()) {
        envelopes_.insert(request->key, toList(request->envelope));
        if (request->error.isEmpty()) lastRead_.insert(QString::fromStdString(request->info.name), LastRead{request->from, request->to, request->envelope});
        stale_.remove(request->key);
        cacheOrder_.push_back(request->key);
        while (cacheOrder_.size() > kCachedEnvelopes) {
            envelopes_.remove(cacheOrder_.front());
            cacheOrder_.pop_front();
        }
        envelopeError_ = request->error;
        ++revision_;
        Q_EMIT envelopesChanged();
    }
    readNext();
}

QString ArchiveSignals::play(const QString& stream, double from, double seconds) {
    const ArchivedStreamInfo* info = timeline_ ? timeline_->streamInfo(stream) : nullptr;
    if (!info || info->kind != ArchivedStreamInfo::Kind::Signal) return tr("'%1' is no signal stream of this archive").arg(stream);
    std::vector<float> clip;
    try {
        const std::string path = timeline_->path().toStdString();
        if (!listenStore_ || listenPath_ != path) {
            listenStore_.reset();
            listenStore_ = std::make_unique<ArchiveStore>(path, ArchiveAccess::Read);
            listenPath_ = path;
        }
        clip = readStreamClip(*listenStore_, *info, from, from + seconds);
    } catch (const std::exception& e) {
        listenStore_.reset();
        return QString::fromStdString(e.what());
    }
    const std::string why = output_.play(std::move(clip), info->rateHz);
    setPlaying(why.empty());
    if (why.empty()) playingWatch_.start();
    return QString::fromStdString(why);
}

QString ArchiveSignals::firstSignalStream() const {
    if (!timeline_) return {};
    for (int row = 0; row < timeline_->rowCount(); ++row) {
        const QModelIndex index = timeline_->index(row);
        if (timeline_->data(index, ArchiveTimelineModel::KindRole).toString() == QStringLiteral("signal"))
            return timeline_->data(index, ArchiveTimelineModel::NameRole).toString();
    }
    return {};
}

void ArchiveSignals::stop() {
    output_.stop();
    setPlaying(false);
}

void ArchiveSignals::setPlaying(bool playing) {
    if (!playing) playingWatch_.stop();
    if (playing == playing_) return;
    playing_ = playing;
    Q_EMIT playingChanged();
}

QString ArchiveSignals::utcText(const QString& stream, double seconds) const {
    const ArchivedStreamInfo* info = timeline_ ? timeline_->streamInfo(stream) : nullptr;
    if (!info || info->clock != Clock::wall().name()) return {};
    const std::string utc = formatUtc(info->zeroTimeNs + static_cast<TimeNs>(std::llround(seconds * 1e9)));
    // to the millisecond: "2026-11-28T03:12:00.250000000Z" -> "2026-11-28T03:12:00.250Z"
    const std::size_t dot = utc.find('.');
    return QString::fromStdString(dot == std::string::npos ? utc : utc.substr(0, dot + 4) + "Z");
}

}  // namespace isochron::ui
