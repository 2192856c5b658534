// The localization view's data: what the running graph's localization taps deliver, drained on the
// ui thread 30 times a second (RunController's telemetry poll) into the event list, the tracks and
// background for the bearing-time plot, the positions for the map and the recent audio; and
// play-back of an event's audio. Or, instead of the run's, past localization events read from an
// archive (openPast), shown the same way and labelled as past until a run starts or closePast.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QThread>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <memory>
#include <vector>

#include "ui/localization/audio_output.h"
#include "ui/localization/bearing_event.h"
#include "ui/localization/bearing_event_model.h"
#include "ui/localization/event_audio.h"
#include "ui/localization/localization_taps.h"
#include "ui/localization/track_history.h"

namespace isochron {
class ItemTapChannel;
}

namespace isochron::ui {

/// Bearings, positions and event audio of the running graph. [ui thread]
class LocalizationFeed : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by RunController")
    /// The graph has a bearing estimator, or past events are shown (the view is worth showing).
    Q_PROPERTY(bool available READ available NOTIFY outputsChanged)
    /// Past events are shown: where from, "<archive file> · <stream> · <from> – <to> s"; empty while
    /// the view shows the graph's runs.
    Q_PROPERTY(QString past READ past NOTIFY pastChanged)
    /// The archive file the past events come from (absolute), or empty.
    Q_PROPERTY(QString pastPath READ pastPath NOTIFY pastChanged)
    /// The past interval shown, seconds from the stream's sample 0 (both 0 while the view shows the
    /// graph's runs): the bearing-time plot's time axis.
    Q_PROPERTY(double pastFrom READ pastFrom NOTIFY pastChanged)
    Q_PROPERTY(double pastTo READ pastTo NOTIFY pastChanged)
    /// What the bearing-time plot of past events lacks or leaves out (tracks or background not
    /// recorded, an interval longer than it keeps), for the user; empty when it shows all a run did.
    Q_PROPERTY(QString pastTracksNote READ pastTracksNote NOTIFY pastChanged)
    /// Reading past events (openPast) is under way.
    Q_PROPERTY(bool pastLoading READ pastLoading NOTIFY pastChanged)
    /// The graph triangulates (several arrays): the map has something to show.
    Q_PROPERTY(bool hasMap READ hasMap NOTIFY outputsChanged)
    /// Array poses for the map: [{x, y, heading}] (m, m, deg).
    Q_PROPERTY(QVariantList arrays READ arrays NOTIFY outputsChanged)
    Q_PROPERTY(isochron::ui::BearingEventModel* events READ events CONSTANT)
    /// Every track, frame by frame, and the background's bearings (frame-wise graphs).
    Q_PROPERTY(isochron::ui::TrackHistory* tracks READ tracks CONSTANT)
    /// The graph reports tracks frame by frame, or the past events are a frame-wise tracker's (the
    /// bearing-time plot is worth showing).
    Q_PROPERTY(bool hasTracks READ hasTracks NOTIFY outputsChanged)
    /// Mics whose audio is held for play-back (0: none yet).
    Q_PROPERTY(int mics READ mics NOTIFY audioChanged)
    /// Items the taps dropped because the ui fell behind.
    Q_PROPERTY(quint64 dropped READ dropped NOTIFY audioChanged)
public:
    explicit LocalizationFeed(QObject* parent = nullptr);
    ~LocalizationFeed() override;

    bool available() const { return !outputs_.empty() || !past_.isEmpty(); }
    QString past() const { return past_; }
    QString pastPath() const { return pastPath_; }
    double pastFrom() const { return pastFrom_; }
    double pastTo() const { return pastTo_; }
    QString pastTracksNote() const { return pastTracksNote_; }
    bool pastLoading() const { return pastReader_ != nullptr; }
    bool hasMap() const { return !outputs_.triangulation.empty(); }
    QVariantList arrays() const;
    BearingEventModel* events() { return &events_; }
    TrackHistory* tracks() { return &tracks_; }
    bool hasTracks() const { return past_.isEmpty() ? !outputs_.tracks.empty() : pastFrameWise_; }
    int mics() const { return audio_.mics(); }
    quint64 dropped() const { return dropped_; }
    const std::vector<SourcePosition>& positions() const { return positions_; }

    /// The edited graph's localization outputs (on every edit); when they change outside a run, the
    /// last run's events are forgotten.
    void setOutputs(LocalizationOutputs outputs);
    /// A run starts: forget the last run's events and audio.
    void beginRun();
    /// The running engine's tap channels (null for taps the graph has no use for).
    void attach(LocalizationChannels channels);
    /// Take everything the taps hold; while `running`, the event clock moves on with wall time. While
    /// past events are shown, what the taps hold is dropped (a run that started meanwhile ends them).
    void drain(bool running);
    /// The run ended: drop the channels (after a last drain).
    void detach();

    /// Show the localization events that the item stream `stream` of the archive `pathOrUrl` holds
    /// from `fromSeconds` to `toSeconds` (seconds from the stream's sample 0) instead of the run's,
    /// read on a worker thread (readArchivedBearings); when `stream` is a frame-wise tracker's events
    /// (`X.events`), also its tracks and background recorded beside them (readArchivedTracks) over the
    /// interval's last TrackHistory::kKeptSeconds, as a run's end shows them. pastOpened follows. On an
    /// error the view stays as it was.
    Q_INVOKABLE void openPast(const QString& pathOrUrl, const QString& stream, double fromSeconds, double toSeconds);
    /// Stop showing past events (the view is empty until the next run).
    Q_INVOKABLE void closePast();

    /// Play row `row`'s audio (mic `mic`, or all mixed when < 0) on the default output. Returns
    /// empty when it plays, else a message for the user. A past event's audio is read from a signal
    /// stream of its archive that stores the event's interval (readArchivedAudio).
    Q_INVOKABLE QString play(int row, int mic = -1);
    /// The samples play(row, mic) would play, and their rate.
    std::vector<float> clipOf(int row, int mic, double& rateHz) const;

Q_SIGNALS:
    void outputsChanged();
    void audioChanged();
    void positionsChanged();
    void pastChanged();
    /// An openPast finished: `error` is empty when the past events are shown, else what was wrong.
    void pastOpened(const QString& error);

private:
    struct PastReading;
    /// Forget every event, track, position and clip (a run starts, or past events come or go).
    void clearShown();
    void showPast(const std::shared_ptr<PastReading>& reading);
    /// play() of a past event: its interval from the archive's audio.
    QString playPast(int row, int mic);

    LocalizationOutputs outputs_;
    BearingEventModel events_;
    TrackHistory tracks_;
    std::vector<SourcePosition> positions_;
    EventAudio audio_;
    AudioOutput output_;
    LocalizationChannels taps_;
    QElapsedTimer sinceDrain_;
    quint64 dropped_ = 0;
    QString past_, pastPath_, pastTracksNote_;
    double pastFrom_ = 0, pastTo_ = 0;
    bool pastFrameWise_ = false;
    QThread* pastReader_ = nullptr;
};

}  // namespace isochron::ui
