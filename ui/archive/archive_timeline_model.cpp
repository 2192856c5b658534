#include "ui/archive/archive_timeline_model.h"

#include <QDateTime>
#include <QFileInfo>
#include <QUrl>
#include <QVariantMap>

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/archive/archive_store.h"
#include "ui/archive/time_axis.h"

namespace isochron::ui {
namespace {

QVariantList spansToList(const std::vector<TimelineSpan>& spans) {
    QVariantList list;
    for (const TimelineSpan& span : spans) list.append(QVariantMap{{"start", span.start}, {"end", span.end}});
    return list;
}

QString lengthText(double seconds) {
    if (seconds < 120) return QObject::tr("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 2 : 1);
    if (seconds < 7200) return QObject::tr("%1 min").arg(seconds / 60, 0, 'f', 1);
    return QObject::tr("%1 h").arg(seconds / 3600, 0, 'f', 2);
}

// In binary units, as isochron-archive prints them.
QString sizeText(std::int64_t bytes) {
    if (bytes < 1024) return QObject::tr("%1 B").arg(bytes);
    if (bytes < (std::int64_t{1} << 20)) return QObject::tr("%1 KiB").arg(static_cast<double>(bytes) / 1024, 0, 'f', 1);
    if (bytes < (std::int64_t{1} << 30)) return QObject::tr("%1 MiB").arg(static_cast<double>(bytes) / (1 << 20), 0, 'f', 1);
    return QObject::tr("%1 GiB").arg(static_cast<double>(bytes) / (1 << 30), 0, 'f', 2);
}

}  // namespace

/// One read of a file's lanes: filled on the reader thread, taken over on the UI thread.
struct ArchiveTimelineModel::Reading {
    std::string path;
    std::vector<TimelineLane> lanes;
    QString error;
};

ArchiveTimelineModel::ArchiveTimelineModel(QObject* parent) : QAbstractListModel(parent) {
    follow_.setInterval(kFollowIntervalMs);
    connect(&follow_, &QTimer::timeout, this, &ArchiveTimelineModel::followFile);
}

ArchiveTimelineModel::~ArchiveTimelineModel() {
    // The page check stops where it is (its report, posted to this model, goes with it); the lanes'
    // read is bounded by the streams' totals, and must not outlive the model's thread object.
    check_.reset();
    if (reader_) {
        reader_->disconnect(this);
        reader_->wait();
        delete reader_;
    }
}

int ArchiveTimelineModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(lanes_.size());
}

QVariant ArchiveTimelineModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const TimelineLane& lane = lanes_[static_cast<std::size_t>(index.row())];
    const bool signal = lane.info.kind == ArchivedStreamInfo::Kind::Signal;
    switch (role) {
    case NameRole: return QString::fromStdString(lane.info.name);
    case KindRole: return signal ? QStringLiteral("signal") : QStringLiteral("events");
    case ChannelsRole: return lane.info.channels;
    case RateRole: return lane.info.rateHz;
    case ClockRole: return QString::fromStdString(lane.info.clock);
    case UnitsRole: return QString::fromStdString(lane.info.units);
    case SummaryRole: {
        if (lane.empty) return tr("nothing stored");
        QString text = signal ? tr("%n ch", nullptr, lane.info.channels) + QStringLiteral(" · %1 Hz").arg(lane.info.rateHz)
                              : tr("%n item(s)", nullptr, static_cast<int>(std::min<std::int64_t>(lane.eventCount, 1 << 30)));
        text += QStringLiteral(" · ") + lengthText(lane.end - lane.start) + QStringLiteral(" · ") + sizeText(lane.bytes);
        if (!lane.gaps.empty()) text += QStringLiteral(" · ") + tr("%n gap(s)", nullptr, static_cast<int>(lane.gaps.size()));
        return text;
    }
    case EmptyRole: return lane.empty;
    case StartRole: return lane.start;
    case EndRole: return lane.end;
    case StoredRole: return spansToList(lane.stored);
    case PartialRole: return spansToList(lane.partial);
    case GapsRole: return spansToList(lane.gaps);
    case TicksRole: {
        QVariantList ticks;
        ticks.reserve(static_cast<qsizetype>(lane.eventTimes.size()));
        for (double t : lane.eventTimes) ticks.append(t);
        return ticks;
    }
    case EventCountRole: return static_cast<double>(lane.eventCount);
    case ItemKindRole: return QString::fromStdString(lane.itemKind);
    default: return {};
    }
}

QHash<int, QByteArray> ArchiveTimelineModel::roleNames() const {
    return {{NameRole, "name"},       {KindRole, "kind"},       {ChannelsRole, "channels"}, {RateRole, "rate"},
            {ClockRole, "clock"},     {UnitsRole, "units"},     {SummaryRole, "summary"},   {EmptyRole, "empty"},
            {StartRole, "start"},     {EndRole, "end"},         {StoredRole, "stored"},     {PartialRole, "partial"},
            {GapsRole, "gaps"},       {TicksRole, "ticks"},     {EventCountRole, "eventCount"}, {ItemKindRole, "itemKind"}};
}

int ArchiveTimelineModel::rowOf(const QString& name) const {
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        if (QString::fromStdString(lanes_[i].info.name) == name) return static_cast<int>(i);
    }
    return -1;
}

const ArchivedStreamInfo* ArchiveTimelineModel::streamInfo(const QString& name) const {
    const int row = rowOf(name);
    return row < 0 ? nullptr : &lanes_[static_cast<std::size_t>(row)].info;
}

QVariantList ArchiveTimelineModel::axisTicks(double from, double to, int maxTicks) const {
    QVariantList ticks;
    for (const AxisTick& tick : isochron::ui::axisTicks(from, to, maxTicks))
        ticks.append(QVariantMap{{"t", tick.seconds}, {"text", QString::fromStdString(tick.label)}});
    return ticks;
}

QString ArchiveTimelineModel::timeLabel(double seconds, double step) const {
    return QString::fromStdString(axisLabel(seconds, step));
}

void ArchiveTimelineModel::open(const QString& pathOrUrl) {
    const QString local = pathOrUrl.startsWith(QStringLiteral("file:")) ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl;
    const QString path = QFileInfo(local).absoluteFilePath();
    if (path != path_) {  // another file: its streams in their own order
        beginResetModel();
        lanes_.clear();
        endResetModel();
        Q_EMIT countChanged();  // the view shows the file being read, not the last one's lanes
    }
    path_ = path;
    checkDamage_ = true;
    if (check_) check_->stop();  // a check of what was open: this file's own follows its lanes
    const bool hadDamage = !damage_.isEmpty();
    damage_.clear();
    Q_EMIT pathChanged();
    if (hadDamage) Q_EMIT checkChanged();
    reload();
    follow_.start();
}

bool ArchiveTimelineModel::openIfExists(const QString& path) {
    if (path.isEmpty() || !QFileInfo(path).isFile()) return false;
    open(path);
    return true;
}

QString ArchiveTimelineModel::fileStamp() const {
    QString stamp;
    for (const QString& file : {path_, path_ + QStringLiteral("-wal")}) {
        const QFileInfo info(file);  // a fresh stat each time
        stamp += info.exists() ? QStringLiteral("%1@%2;").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch()) : QStringLiteral("-;");
    }
    return stamp;
}

void ArchiveTimelineModel::followFile() {
    // While a read is under way, a change shows at the next look: the stamp is taken when a read begins.
    if (!reader_ && fileStamp() != readStamp_) reload();
}

void ArchiveTimelineModel::reload() {
    if (path_.isEmpty()) return;
    if (reader_) {
        readAgain_ = true;
        return;
    }
    auto reading = std::make_shared<Reading>();
    reading->path = path_.toStdString();
    // Before the read: a change while it reads makes the next look read again. (Closing the reader may
    // itself fold the WAL into the file; that costs one more read, after which the stamp holds still.)
    readStamp_ = fileStamp();
    reader_ = QThread::create([reading] {
        try {
            reading->lanes = readArchiveTimeline(reading->path);
        } catch (const std::exception& e) {
            reading->error = QString::fromStdString(e.what());
        }
    });
    connect(reader_, &QThread::finished, this, [this, reading] { finish(reading); });
    reader_->start();
    Q_EMIT loadingChanged();
}

void ArchiveTimelineModel::finish(const std::shared_ptr<Reading>& reading) {
    reader_->deleteLater();
    reader_ = nullptr;
    if (readAgain_ || reading->path != path_.toStdString()) {
        readAgain_ = false;
        reload();
        return;
    }
    error_ = reading->error;
    takeLanes(std::move(reading->lanes));
    axisStart_ = axisEnd_ = 0;
    bool first = true;
    for (const TimelineLane& lane : lanes_) {
        if (lane.empty) continue;
        axisStart_ = first ? lane.start : std::min(axisStart_, lane.start);
        axisEnd_ = first ? lane.end : std::max(axisEnd_, lane.end);
        first = false;
    }
    Q_EMIT loadingChanged();
    Q_EMIT countChanged();
    Q_EMIT loaded();
    if (checkDamage_ && reading->error.isEmpty()) startCheck();
}

void ArchiveTimelineModel::startCheck() {
    if (check_) return;  // finishCheck() starts the next one
    checkDamage_ = false;
    // The lanes read the streams' totals and stretches, which may be sound while the pages of samples
    // get, export and replay need are not; reading every page takes about as long as reading the file,
    // so it runs once the lanes show, beside their reloads.
    check_ = std::make_unique<ArchivePageCheck>(path_.toStdString(), [this](const ArchivePageCheck::Result& result) {
        QMetaObject::invokeMethod(this, [this, result] { finishCheck(result); }, Qt::QueuedConnection);
    });
    Q_EMIT checkChanged();
}

void ArchiveTimelineModel::finishCheck(const ArchivePageCheck::Result& result) {
    const bool sameFile = check_->path() == path_.toStdString();
    check_.reset();  // its thread has reported: the last thing it does
    // A failed check (the file went, or another read error) is the lanes' reads to say.
    if (sameFile && !checkDamage_) damage_ = result.outcome == ArchivePageCheck::Result::Outcome::Damaged ? QString::fromStdString(result.damage) : QString();
    // Another file was opened meanwhile, and its lanes are in: its own check now.
    if (checkDamage_ && !reader_ && error_.isEmpty()) {
        startCheck();
        return;
    }
    Q_EMIT checkChanged();
}

void ArchiveTimelineModel::takeLanes(std::vector<TimelineLane> lanes) {
    // Streams keep their rows while they are there (in the order first read), new ones come last.
    std::vector<TimelineLane> kept(lanes_.size());
    std::vector<TimelineLane> added;
    std::size_t found = 0;
    for (TimelineLane& lane : lanes) {
        const auto old = std::find_if(lanes_.begin(), lanes_.end(), [&](const TimelineLane& l) { return l.info.name == lane.info.name; });
        if (old == lanes_.end()) {
            added.push_back(std::move(lane));
        } else {
            kept[static_cast<std::size_t>(old - lanes_.begin())] = std::move(lane);
            ++found;
        }
    }
    if (found < lanes_.size()) {  // a stream went (another file under the name): start over
        beginResetModel();
        lanes_ = std::move(kept);
        lanes_.erase(std::remove_if(lanes_.begin(), lanes_.end(), [](const TimelineLane& l) { return l.info.name.empty(); }), lanes_.end());
        for (TimelineLane& lane : added) lanes_.push_back(std::move(lane));
        endResetModel();
        return;
    }
    lanes_ = std::move(kept);
    if (!lanes_.empty()) Q_EMIT dataChanged(index(0), index(static_cast<int>(lanes_.size()) - 1));
    if (!added.empty()) {
        beginInsertRows({}, static_cast<int>(lanes_.size()), static_cast<int>(lanes_.size() + added.size()) - 1);
        for (TimelineLane& lane : added) lanes_.push_back(std::move(lane));
        endInsertRows();
    }
}

}  // namespace isochron::ui
