// The localization view's polar plot on scene-graph geometry: one dot per bearing, seen from above
// with the array's front (azimuth 0°, x) up and azimuth growing counter-clockwise (90° = left), at a
// distance from the centre of cos(elevation) (the horizon on the outer ring, straight up at the
// centre). A dot's size and opacity grow with confidence; it fades out over the model's history.
// The selected event is ringed, with a line from the centre. Ring and angle labels come from QML
// (pointFor).
#pragma once

#include <QColor>
#include <QPointer>
#include <QQuickItem>
#include <QVariantList>

#include "ui/localization/bearing_event_model.h"

namespace isochron::ui {

/// Polar plot of a BearingEventModel. [ui thread; updatePaintNode on the render thread while the ui thread waits]
class BearingPlot : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(isochron::ui::BearingEventModel* events READ events WRITE setEvents NOTIFY eventsChanged)
    /// Dot colour per array (cycled); the default is a blue.
    Q_PROPERTY(QVariantList colors MEMBER colors_ NOTIFY styleChanged)
    Q_PROPERTY(QColor gridColor MEMBER gridColor_ NOTIFY styleChanged)
    Q_PROPERTY(QColor highlightColor MEMBER highlightColor_ NOTIFY styleChanged)
    /// Radius (px) of the horizon ring.
    Q_PROPERTY(double radius READ radius NOTIFY geometryUpdated)
public:
    explicit BearingPlot(QQuickItem* parent = nullptr);

    BearingEventModel* events() const { return events_; }
    void setEvents(BearingEventModel* events);
    double radius() const;
    /// Where a direction is drawn, in item coordinates.
    Q_INVOKABLE QPointF pointFor(double azimuthDeg, double elevationDeg) const;
    /// The row of the visible dot nearest to (x, y) within 12 px, or -1.
    Q_INVOKABLE int rowAt(double x, double y) const;

Q_SIGNALS:
    void eventsChanged();
    void styleChanged();
    void geometryUpdated();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData* data) override;
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;

private:
    QColor colorOf(int array) const;
    QPointer<BearingEventModel> events_;
    QVariantList colors_;
    QColor gridColor_ = QColor(0, 0, 0, 40);
    QColor highlightColor_ = QColor(0xf5, 0x9e, 0x0b);
};

}  // namespace isochron::ui
