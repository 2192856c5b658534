// The localization view's bearing-time plot on scene-graph geometry: azimuth (0° at the bottom to
// 360° at the top) against stream time (the last `historySeconds` up to the event model's clock, the
// newest at the right). Every track is a line through the frames it was heard in (broken where it
// was silent for more than kLineGapSeconds), coloured by track; background tracks and the steady
// background's bearings are shaded bands; each sound the tracker reported is a thick bar at its
// azimuth over its span (its confidence as opacity), the selected one ringed. The time axis fits
// what is kept (from the stream's start to the clock, at least kMinimumSpanSeconds wide and at most
// TrackHistory::kKeptSeconds back), so a file's run fits whole and a live run scrolls once longer;
// past events (spanFrom < spanTo) show their interval instead, at most its last kKeptSeconds.
// Axis labels come from QML (xFor, yFor, timeTicks).
#pragma once

#include <QColor>
#include <QPointer>
#include <QQuickItem>
#include <QVariantList>

#include "ui/localization/bearing_event_model.h"
#include "ui/localization/track_history.h"

namespace isochron::ui {

/// Bearing against time of a TrackHistory and a BearingEventModel. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class BearingTimePlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::BearingEventModel* events READ events WRITE setEvents NOTIFY eventsChanged)
    Q_PROPERTY(isochron::ui::TrackHistory* tracks READ tracks WRITE setTracks NOTIFY tracksChanged)
    /// Line colours per track (cycled by track id).
    Q_PROPERTY(QVariantList colors MEMBER colors_ NOTIFY styleChanged)
    Q_PROPERTY(QColor gridColor MEMBER gridColor_ NOTIFY styleChanged)
    Q_PROPERTY(QColor backgroundColor MEMBER backgroundColor_ NOTIFY styleChanged)
    Q_PROPERTY(QColor highlightColor MEMBER highlightColor_ NOTIFY styleChanged)
    /// The stream times (s) at the left and right edges, and round times between for labels.
    Q_PROPERTY(double timeFrom READ timeFrom NOTIFY rangeChanged)
    Q_PROPERTY(double timeTo READ timeTo NOTIFY rangeChanged)
    Q_PROPERTY(QVariantList timeTicks READ timeTicks NOTIFY rangeChanged)
    /// A fixed time axis, s (past events: the interval shown); while spanTo <= spanFrom (both 0 by
    /// default) the axis follows the clock.
    Q_PROPERTY(double spanFrom READ spanFrom WRITE setSpanFrom NOTIFY spanChanged)
    Q_PROPERTY(double spanTo READ spanTo WRITE setSpanTo NOTIFY spanChanged)
public:
    static constexpr double kLineGapSeconds = 0.25;
    static constexpr double kMinimumSpanSeconds = 2;
    static constexpr double kBandDegrees = 6;  ///< half-height of a background band

    explicit BearingTimePlot(QQuickItem* parent = nullptr);

    BearingEventModel* events() const { return events_; }
    void setEvents(BearingEventModel* events);
    TrackHistory* tracks() const { return tracks_; }
    void setTracks(TrackHistory* tracks);
    double timeFrom() const { return from_; }
    double timeTo() const { return to_; }
    QVariantList timeTicks() const { return timeTicks_; }
    double spanFrom() const { return spanFrom_; }
    void setSpanFrom(double seconds);
    double spanTo() const { return spanTo_; }
    void setSpanTo(double seconds);
    /// Where stream time `seconds` is drawn (x, item coordinates).
    Q_INVOKABLE double xFor(double seconds) const;
    /// Where azimuth `degrees` is drawn (y, item coordinates).
    Q_INVOKABLE double yFor(double degrees) const;
    /// The row of the event bar nearest to (x, y) within 8 px, or -1.
    Q_INVOKABLE int rowAt(double x, double y) const;

Q_SIGNALS:
    void eventsChanged();
    void tracksChanged();
    void styleChanged();
    void rangeChanged();
    void spanChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;

private:
    QColor colorOf(int trackId) const;
    double nowSeconds() const;
    /// Fit the time axis to the marks kept and the clock (from_, to_, timeTicks_).
    void refreshRange();
    /// Show [from, to] (s) with its round-time ticks; rangeChanged when anything moved.
    void applyRange(double from, double to);
    QPointer<BearingEventModel> events_;
    QPointer<TrackHistory> tracks_;
    QVariantList colors_;
    QColor gridColor_ = QColor(0, 0, 0, 40);
    QColor backgroundColor_ = QColor(0x94, 0xa3, 0xb8, 90);
    QColor highlightColor_ = QColor(0xf5, 0x9e, 0x0b);
    double from_ = -kMinimumSpanSeconds, to_ = 0;
    double spanFrom_ = 0, spanTo_ = 0;
    QVariantList timeTicks_;
};

}  // namespace isochron::ui
