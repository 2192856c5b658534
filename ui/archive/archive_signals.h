// The signal side of the Archive tab: each signal lane's envelope (min and max per pixel column, over
// all channels) for the view shown, read off the UI thread and kept per view, and the audio under the
// playhead, played through the editor's audio output (the Localization tab's Play uses the same).
// Without an output device play() says why and nothing else happens.
#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <deque>
#include <memory>

#include "ui/archive/archive_timeline_model.h"
#include "ui/archive/signal_envelope.h"
#include "ui/localization/audio_output.h"

namespace isochron::ui {

/// Envelopes and play-back of the signal lanes of an ArchiveTimelineModel's file. [ui thread]
class ArchiveSignals : public QObject {
    Q_OBJECT
    QML_ELEMENT
    /// The lanes whose file is read; its reloads (the file grew) read the envelopes again.
    Q_PROPERTY(ArchiveTimelineModel* timeline READ timeline WRITE setTimeline NOTIFY timelineChanged)
    /// Changes whenever an envelope arrives: bindings that call envelope() depend on it.
    Q_PROPERTY(int revision READ revision NOTIFY envelopesChanged)
    /// Why the last envelope could not be read, or empty.
    Q_PROPERTY(QString envelopeError READ envelopeError NOTIFY envelopesChanged)
    /// A clip started by play() is still sounding.
    Q_PROPERTY(bool playing READ playing NOTIFY playingChanged)
public:
    /// Envelopes kept (each a view of one lane at one width); the oldest go first.
    static constexpr int kCachedEnvelopes = 64;

    explicit ArchiveSignals(QObject* parent = nullptr);
    ~ArchiveSignals() override;

    ArchiveTimelineModel* timeline() const { return timeline_; }
    void setTimeline(ArchiveTimelineModel* timeline);
    int revision() const { return revision_; }
    QString envelopeError() const { return envelopeError_; }
    bool playing() const { return playing_; }

    /// The envelope of signal stream `stream` over [from, to) seconds in `columns` pixel columns: a
    /// flat list [min0, max0, min1, max1, …] with NaN for a column where nothing is stored. Read on a
    /// worker thread the first time (meanwhile the lane's last envelope read, rescaled to this view,
    /// or an empty list before any) and kept: `revision` changes when it is in.
    Q_INVOKABLE QVariantList envelope(const QString& stream, double from, double to, int columns);
    /// Play `seconds` of `stream` from `from` (channels mixed), stopping what plays. Returns empty when
    /// it plays, else why not (no output device, nothing stored there, no such stream).
    Q_INVOKABLE QString play(const QString& stream, double from, double seconds);
    /// The first signal lane's stream (what the ruler's playhead plays until a lane is clicked), or empty.
    Q_INVOKABLE QString firstSignalStream() const;
    /// Stop playing (nothing happens when nothing plays).
    Q_INVOKABLE void stop();
    /// `seconds` of `stream` in UTC ("2026-11-28T03:12:00.250Z") when it was recorded on the wall
    /// clock, else empty (a media clock's seconds have no date).
    Q_INVOKABLE QString utcText(const QString& stream, double seconds) const;

Q_SIGNALS:
    void timelineChanged();
    void envelopesChanged();
    void playingChanged();

private:
    struct Request;
    void readNext();
    void finish(const std::shared_ptr<Request>& request);
    void fileChanged();
    void setPlaying(bool playing);

    QPointer<ArchiveTimelineModel> timeline_;
    QString filePath_;  // the timeline's file when its lanes were last read
    QHash<QString, QVariantList> envelopes_;  // by request key, of the file as last read
    QHash<QString, QVariantList> stale_;      // read before the file last changed: shown until read again
    /// The last envelope read of a lane, by stream: drawn, rescaled, in a view not read yet (a zoom, a
    /// growing recording's next Fit view), so the lane never shows blank while its read is under way.
    struct LastRead {
        double from = 0, to = 0;
        std::vector<EnvelopeColumn> envelope;
    };
    QHash<QString, LastRead> lastRead_;
    std::deque<QString> cacheOrder_;          // keys of envelopes_, oldest first
    std::deque<std::shared_ptr<Request>> pending_;
    QThread* reader_ = nullptr;
    int revision_ = 0;
    QString envelopeError_;
    AudioOutput output_;
    std::unique_ptr<ArchiveStore> listenStore_;  // the file play() reads, kept open between grains
    std::string listenPath_;
    bool playing_ = false;
    QTimer playingWatch_;  // notices the end of a clip
};

}  // namespace isochron::ui
