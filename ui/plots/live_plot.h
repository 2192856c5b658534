// A live line plot on scene-graph geometry: series from the telemetry store, decimated to about two
// points per pixel column, drawn as anti-aliased ribbons with horizontal grid lines. Redraws when
// the store has new points (30 Hz while a graph runs). Axis labels come from QML (see ticks).
#pragma once

#include <QColor>
#include <QPointer>
#include <QQuickItem>
#include <QVariantList>

#include "ui/run/telemetry_store.h"

namespace isochron::ui {

/// One plot. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class LivePlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::TelemetryStore* store READ store WRITE setStore NOTIFY storeChanged)
    /// What to draw: [{key, color, run (default -1: the newest run), width (px, default 1.5)}].
    Q_PROPERTY(QVariantList series READ series WRITE setSeries NOTIFY seriesChanged)
    /// Seconds shown at most, ending at the newest point (a shorter run is shown whole, from its
    /// start); 0 shows each run from its start.
    Q_PROPERTY(double timeWindow READ timeWindow WRITE setTimeWindow NOTIFY seriesChanged)
    /// Fixed value range when maximum > minimum; otherwise the range follows the data (from 0 when includeZero).
    Q_PROPERTY(double fixedMinimum MEMBER fixedMinimum_ NOTIFY seriesChanged)
    Q_PROPERTY(double fixedMaximum MEMBER fixedMaximum_ NOTIFY seriesChanged)
    Q_PROPERTY(bool includeZero MEMBER includeZero_ NOTIFY seriesChanged)
    Q_PROPERTY(QColor gridColor MEMBER gridColor_ NOTIFY seriesChanged)
    /// The range drawn, and round values for grid lines and labels.
    Q_PROPERTY(double low READ low NOTIFY rangeChanged)
    Q_PROPERTY(double high READ high NOTIFY rangeChanged)
    Q_PROPERTY(double timeFrom READ timeFrom NOTIFY rangeChanged)
    Q_PROPERTY(double timeTo READ timeTo NOTIFY rangeChanged)
    Q_PROPERTY(QVariantList ticks READ ticks NOTIFY rangeChanged)
public:
    explicit LivePlot(QQuickItem* parent = nullptr);

    TelemetryStore* store() const { return store_; }
    void setStore(TelemetryStore* store);
    QVariantList series() const { return series_; }
    void setSeries(const QVariantList& series);
    double timeWindow() const { return timeWindow_; }
    void setTimeWindow(double seconds);
    double low() const { return low_; }
    double high() const { return high_; }
    double timeFrom() const { return timeFrom_; }
    double timeTo() const { return timeTo_; }
    QVariantList ticks() const { return ticks_; }

Q_SIGNALS:
    void storeChanged();
    void seriesChanged();
    void rangeChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;

private:
    void refreshRange();
    QPointer<TelemetryStore> store_;
    QMetaObject::Connection updates_;
    QVariantList series_;
    double timeWindow_ = 30;
    double fixedMinimum_ = 0, fixedMaximum_ = 0;
    bool includeZero_ = true;
    QColor gridColor_ = QColor(0, 0, 0, 30);
    double low_ = 0, high_ = 1, timeFrom_ = 0, timeTo_ = 1;
    QVariantList ticks_;
};

}  // namespace isochron::ui
