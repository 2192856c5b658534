#include "ui/localization/localization_feed.h"

#include <QFileInfo>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <cmath>

#include "nodes/io/item_tap.h"
#include "ui/localization/archived_audio.h"
#include "ui/localization/archived_bearings.h"
#include "ui/localization/archived_tracks.h"

namespace isochron::ui {
namespace {

constexpr std::size_t kMaxPositions = 2000;

double attribute(const EventRecord& record, const char* name, double otherwise) { return record.get(name).value_or(otherwise); }

/// `record`'s attributes as trackPointOf and backgroundPointOf read them.
auto attributesOf(const EventRecord& record) {
    return [&record](const char* name, double otherwise) { return attribute(record, name, otherwise); };
}

double secondsOf(std::int64_t index, const SampleRange& range) {
    return range.timebase ? static_cast<double>(index) / range.timebase->rateHz() : 0.0;
}

constexpr double kLiveHistorySeconds = 30;  // BearingEventModel's default: marks fade over the last 30 s

/// What the bearing-time plot of a frame-wise tracker's past events lacks: streams not recorded
/// beside the events, or the start of an interval longer than TrackHistory keeps.
QString tracksNote(const TrackerStreams& streams, const ArchivedTracks& tracks, double intervalSeconds) {
    QStringList missing;
    if (!tracks.tracksRecorded) missing << QString::fromStdString(streams.tracks);
    if (!tracks.backgroundRecorded) missing << QString::fromStdString(streams.background);
    QStringList notes;
    if (!missing.isEmpty()) {
        notes << (missing.size() == 1 ? QObject::tr("%1 is not recorded in this archive (record it beside the events to see it here)")
                                      : QObject::tr("%1 are not recorded in this archive (record them beside the events to see them here)"))
                     .arg(missing.join(QObject::tr(" and ")));
    }
    if (intervalSeconds > TrackHistory::kKeptSeconds) {
        notes << QObject::tr("tracks and background of the interval's last %1 s").arg(TrackHistory::kKeptSeconds);
    }
    return notes.join(QStringLiteral("; "));
}

}  // namespace

/// One openPast: filled on the reader thread, taken over on the UI thread.
struct LocalizationFeed::PastReading {
    std::string path, stream;
    double from = 0, to = 0;
    std::vector<BearingEvent> events;
    std::optional<TrackerStreams> tracker;  ///< the stream is a frame-wise tracker's events
    ArchivedTracks tracks;
    QString error;
};

LocalizationFeed::LocalizationFeed(QObject* parent) : QObject(parent) {}

LocalizationFeed::~LocalizationFeed() {
    if (pastReader_) {
        pastReader_->disconnect(this);
        pastReader_->wait();  // a read is bounded by the interval; it must not outlive the feed
        delete pastReader_;
    }
}

QVariantList LocalizationFeed::arrays() const {
    QVariantList list;
    for (std::size_t i = 0; i + 2 < outputs_.arrayPoses.size(); i += 3) {
        list.append(QVariantMap{{"x", outputs_.arrayPoses[i]}, {"y", outputs_.arrayPoses[i + 1]}, {"heading", outputs_.arrayPoses[i + 2]}});
    }
    return list;
}

void LocalizationFeed::setOutputs(LocalizationOutputs outputs) {
    const bool same = outputs.bearings == outputs_.bearings && outputs.tracks == outputs_.tracks &&
                      outputs.triangulation == outputs_.triangulation && outputs.arrayPoses == outputs_.arrayPoses;
    outputs_ = std::move(outputs);
    if (same) return;
    if (!taps_.bearings && past_.isEmpty()) beginRun();  // another graph: the last run's events are not its own
    Q_EMIT outputsChanged();
}

void LocalizationFeed::beginRun() {
    clearShown();
    if (!past_.isEmpty()) closePast();
}

void LocalizationFeed::clearShown() {
    events_.clear();
    tracks_.clear();
    positions_.clear();
    audio_.clear();
    dropped_ = 0;
    Q_EMIT positionsChanged();
    Q_EMIT audioChanged();
}

void LocalizationFeed::attach(LocalizationChannels channels) {
    taps_ = std::move(channels);
    sinceDrain_.start();
}

void LocalizationFeed::drain(bool running) {
    // While past events are shown the taps are still emptied (their rings must not fill), into nothing.
    const bool live = past_.isEmpty();
    if (running && sinceDrain_.isValid()) {
        const double wallSeconds = static_cast<double>(sinceDrain_.restart()) / 1000.0;
        if (live) events_.advance(wallSeconds);
    }
    bool audioArrived = false;
    if (taps_.audio) {
        while (auto tapped = taps_.audio->pop()) {
            const Item& item = tapped->item;
            if (!live || item.kind() != ItemKind::Signal || item.sampleType() != SampleType::Float32) continue;
            const SampleRange range = item.range();
            std::vector<float> samples;
            samples.reserve(static_cast<std::size_t>(range.length));
            item.signal<float>().forEachSpan([&](std::span<const float> run) { samples.insert(samples.end(), run.begin(), run.end()); });
            audio_.add(tapped->port, range.start, range.timebase->rateHz(), std::move(samples));
            audioArrived = true;
        }
    }
    if (taps_.bearings) {
        std::vector<BearingEvent> arrived;
        while (auto tapped = taps_.bearings->pop()) {
            const EventRecord* record = tapped->item.event();
            if (!record) continue;
            const SampleRange range = tapped->item.range();
            BearingEvent e;
            e.startSeconds = secondsOf(range.start, range);
            e.endSeconds = secondsOf(range.end(), range);
            e.azimuthDeg = attribute(*record, "azimuth_deg", 0);
            e.elevationDeg = attribute(*record, "elevation_deg", 0);
            e.confidence = attribute(*record, "confidence", 0);
            e.trackId = static_cast<int>(attribute(*record, "track_id", -1));
            e.array = tapped->port;
            arrived.push_back(e);
        }
        if (live) events_.append(arrived);
    }
    std::vector<TrackPoint> points;
    if (taps_.tracks) {
        while (auto tapped = taps_.tracks->pop()) {
            const EventRecord* record = tapped->item.event();
            if (!record) continue;
            const SampleRange range = tapped->item.range();
            points.push_back(trackPointOf(secondsOf(range.start, range), tapped->port, attributesOf(*record)));
        }
    }
    std::vector<BackgroundPoint> background;
    if (taps_.background) {
        while (auto tapped = taps_.background->pop()) {
            const EventRecord* record = tapped->item.event();
            if (!record) continue;
            const SampleRange range = tapped->item.range();
            background.push_back(backgroundPointOf(secondsOf(range.start, range), tapped->port, attributesOf(*record)));
        }
    }
    if (live) tracks_.append(points, background);
    bool positionsArrived = false;
    if (taps_.positions) {
        while (auto tapped = taps_.positions->pop()) {
            const EventRecord* record = tapped->item.event();
            if (!record || !live) continue;
            const SampleRange range = tapped->item.range();
            positions_.push_back({secondsOf(range.start, range), secondsOf(range.end(), range), attribute(*record, "x_m", 0),
                                  attribute(*record, "y_m", 0), attribute(*record, "residual_m", 0)});
            positionsArrived = true;
        }
        if (positions_.size() > kMaxPositions) positions_.erase(positions_.begin(), positions_.end() - kMaxPositions);
    }
    quint64 dropped = 0;
    for (const auto& tap : {taps_.bearings, taps_.audio, taps_.positions, taps_.tracks, taps_.background}) dropped += tap ? tap->dropped() : 0;
    if (audioArrived || dropped != dropped_) {
        dropped_ = dropped;
        Q_EMIT audioChanged();
    }
    if (positionsArrived) Q_EMIT positionsChanged();
}

void LocalizationFeed::detach() { taps_ = {}; }

std::vector<float> LocalizationFeed::clipOf(int row, int mic, double& rateHz) const {
    rateHz = 0;
    if (row < 0 || row >= events_.rowCount()) return {};
    const BearingEvent& e = events_.at(row);
    rateHz = audio_.rateOf(e.startSeconds, e.endSeconds);
    return audio_.extract(e.startSeconds, e.endSeconds, mic);
}

QString LocalizationFeed::playPast(int row, int mic) {
    if (row < 0 || row >= events_.rowCount()) return tr("No such event");
    const BearingEvent& e = events_.at(row);
    // An event's interval (a second or so) of one stream: a read as short as a telemetry poll's work.
    ArchivedAudio audio;
    try {
        audio = readArchivedAudio(pastPath_.toStdString(), e.startSeconds, e.endSeconds, mic);
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    if (audio.samples.empty()) return tr("No audio for this past event: %1").arg(QString::fromStdString(audio.why));
    return QString::fromStdString(output_.play(std::move(audio.samples), audio.rateHz));
}

void LocalizationFeed::openPast(const QString& pathOrUrl, const QString& stream, double fromSeconds, double toSeconds) {
    auto reading = std::make_shared<PastReading>();
    const QString local = pathOrUrl.startsWith(QStringLiteral("file:")) ? QUrl(pathOrUrl).toLocalFile() : pathOrUrl;
    reading->path = QFileInfo(local).absoluteFilePath().toStdString();
    reading->stream = stream.toStdString();
    reading->from = fromSeconds;
    reading->to = toSeconds;
    if (pastReader_) pastReader_->disconnect(this);  // the newest request wins; the older read ends unheard
    pastReader_ = QThread::create([reading] {
        try {
            reading->events = readArchivedBearings(reading->path, reading->stream, reading->from, reading->to);
            reading->tracker = trackerStreamsOf(reading->stream);
            if (reading->tracker) {
                const double kept = std::max(reading->from, reading->to - TrackHistory::kKeptSeconds);
                reading->tracks = readArchivedTracks(reading->path, *reading->tracker, kept, reading->to);
            }
        } catch (const std::exception& e) {
            reading->error = QString::fromStdString(e.what());
        }
    });
    QThread* reader = pastReader_;
    connect(reader, &QThread::finished, reader, &QObject::deleteLater);
    connect(reader, &QThread::finished, this, [this, reading] { showPast(reading); });
    reader->start();
    Q_EMIT pastChanged();
}

void LocalizationFeed::showPast(const std::shared_ptr<PastReading>& reading) {
    pastReader_ = nullptr;
    if (!reading->error.isEmpty()) {
        Q_EMIT pastChanged();
        Q_EMIT pastOpened(reading->error);
        return;
    }
    clearShown();
    const QString file = QString::fromStdString(reading->path);
    past_ = tr("%1 · %2 · %3 – %4 s")
                .arg(QFileInfo(file).fileName(), QString::fromStdString(reading->stream))
                .arg(reading->from, 0, 'f', 3)
                .arg(reading->to, 0, 'f', 3);
    pastPath_ = file;
    pastFrom_ = reading->from;
    pastTo_ = reading->to;
    pastFrameWise_ = reading->tracker.has_value();
    pastTracksNote_ = reading->tracker ? tracksNote(*reading->tracker, reading->tracks, reading->to - reading->from) : QString();
    // Every event of the interval stays visible: the marks fade over the whole interval, not the last 30 s.
    events_.setHistorySeconds(std::max(kLiveHistorySeconds, reading->to - reading->from));
    events_.append(reading->events);
    tracks_.append(reading->tracks.points, reading->tracks.background);
    Q_EMIT pastChanged();
    Q_EMIT outputsChanged();
    Q_EMIT pastOpened(QString());
}

void LocalizationFeed::closePast() {
    if (past_.isEmpty()) return;
    past_.clear();
    pastPath_.clear();
    pastTracksNote_.clear();
    pastFrom_ = pastTo_ = 0;
    pastFrameWise_ = false;
    clearShown();
    events_.setHistorySeconds(kLiveHistorySeconds);
    Q_EMIT pastChanged();
    Q_EMIT outputsChanged();
}

QString LocalizationFeed::play(int row, int mic) {
    if (!past_.isEmpty()) return playPast(row, mic);
    double rate = 0;
    std::vector<float> clip = clipOf(row, mic, rate);
    if (clip.empty()) return tr("No audio is held for this event (only the first array's recent events can be played)");
    return QString::fromStdString(output_.play(std::move(clip), rate));
}

}  // namespace isochron::ui
