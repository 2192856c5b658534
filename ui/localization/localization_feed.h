// The localization view's data: what the running graph's localization taps deliver, drained on the
// ui thread 30 times a second (RunController's telemetry poll) into the event list, the tracks and
// background for the bearing-time plot, the positions for the map and the recent audio; and
// play-back of an event's audio.
#pragma once

#include <QElapsedTimer>
#include <QObject>
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
    /// The graph has a bearing estimator (the view is worth showing).
    Q_PROPERTY(bool available READ available NOTIFY outputsChanged)
    /// The graph triangulates (several arrays): the map has something to show.
    Q_PROPERTY(bool hasMap READ hasMap NOTIFY outputsChanged)
    /// Array poses for the map: [{x, y, heading}] (m, m, deg).
    Q_PROPERTY(QVariantList arrays READ arrays NOTIFY outputsChanged)
    Q_PROPERTY(isochron::ui::BearingEventModel* events READ events CONSTANT)
    /// Every track, frame by frame, and the background's bearings (frame-wise graphs).
    Q_PROPERTY(isochron::ui::TrackHistory* tracks READ tracks CONSTANT)
    /// The graph reports tracks frame by frame (the bearing-time plot is worth showing).
    Q_PROPERTY(bool hasTracks READ hasTracks NOTIFY outputsChanged)
    /// Mics whose audio is held for play-back (0: none yet).
    Q_PROPERTY(int mics READ mics NOTIFY audioChanged)
    /// Items the taps dropped because the ui fell behind.
    Q_PROPERTY(quint64 dropped READ dropped NOTIFY audioChanged)
public:
    explicit LocalizationFeed(QObject* parent = nullptr);
    ~LocalizationFeed() override;

    bool available() const { return !outputs_.empty(); }
    bool hasMap() const { return !outputs_.triangulation.empty(); }
    QVariantList arrays() const;
    BearingEventModel* events() { return &events_; }
    TrackHistory* tracks() { return &tracks_; }
    bool hasTracks() const { return !outputs_.tracks.empty(); }
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
    /// Take everything the taps hold; while `running`, the event clock moves on with wall time.
    void drain(bool running);
    /// The run ended: drop the channels (after a last drain).
    void detach();

    /// Play row `row`'s audio (mic `mic`, or all mixed when < 0) on the default output. Returns
    /// empty when it plays, else a message for the user.
    Q_INVOKABLE QString play(int row, int mic = -1);
    /// The samples play(row, mic) would play, and their rate.
    std::vector<float> clipOf(int row, int mic, double& rateHz) const;

Q_SIGNALS:
    void outputsChanged();
    void audioChanged();
    void positionsChanged();

private:
    LocalizationOutputs outputs_;
    BearingEventModel events_;
    TrackHistory tracks_;
    std::vector<SourcePosition> positions_;
    EventAudio audio_;
    AudioOutput output_;
    LocalizationChannels taps_;
    QElapsedTimer sinceDrain_;
    quint64 dropped_ = 0;
};

}  // namespace isochron::ui
