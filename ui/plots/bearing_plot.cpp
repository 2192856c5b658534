#include "ui/plots/bearing_plot.h"

#include <QSGGeometryNode>

#include <cmath>
#include <numbers>
#include <vector>

#include "ui/canvas/ribbon_geometry.h"
#include "ui/plots/disc_geometry.h"

namespace isochron::ui {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kMargin = 12;  // px between the horizon ring and the item's edge, for the largest dot

std::vector<QPointF> circle(QPointF centre, double radius) {
    std::vector<QPointF> points;
    const int segments = std::max(24, static_cast<int>(radius / 2));
    for (int i = 0; i <= segments; ++i) {
        const double a = 2 * std::numbers::pi * i / segments;
        points.emplace_back(centre.x() + radius * std::cos(a), centre.y() + radius * std::sin(a));
    }
    return points;
}

}  // namespace

BearingPlot::BearingPlot(QQuickItem* parent) : QQuickItem(parent) { setFlag(ItemHasContents, true); }

void BearingPlot::setEvents(BearingEventModel* events) {
    if (events == events_) return;
    if (events_) disconnect(events_, nullptr, this, nullptr);
    events_ = events;
    if (events_) repaintOnChanges(*events_, *this);
    Q_EMIT eventsChanged();
    update();
}

double BearingPlot::radius() const { return std::max(0.0, std::min(width(), height()) / 2 - kMargin); }

QPointF BearingPlot::pointFor(double azimuthDeg, double elevationDeg) const {
    const double r = radius() * std::cos(elevationDeg * kDegree);
    // Seen from above with the front up: x (azimuth 0) points up the screen, y (azimuth 90) left.
    return {width() / 2 - r * std::sin(azimuthDeg * kDegree), height() / 2 - r * std::cos(azimuthDeg * kDegree)};
}

int BearingPlot::rowAt(double x, double y) const {
    if (!events_) return -1;
    int best = -1;
    double bestDistance = 12;
    for (int row = 0; row < events_->rowCount(); ++row) {
        if (events_->opacityAt(row) <= 0) continue;
        const BearingEvent& e = events_->at(row);
        const QPointF p = pointFor(e.azimuthDeg, e.elevationDeg);
        const double d = std::hypot(p.x() - x, p.y() - y);
        if (d < bestDistance) {
            bestDistance = d;
            best = row;
        }
    }
    return best;
}

QColor BearingPlot::colorOf(int array) const {
    if (colors_.isEmpty()) return QColor(0x3b, 0x82, 0xf6);
    return colors_.at(array % colors_.size()).value<QColor>();
}

void BearingPlot::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    Q_EMIT geometryUpdated();
    update();
}

QSGNode* BearingPlot::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    QSGNode* root = old;
    if (!root) {
        root = new QSGNode;
        root->appendChildNode(RibbonBuilder::createNode());  // grid
        root->appendChildNode(RibbonBuilder::createNode());  // dots
        root->appendChildNode(RibbonBuilder::createNode());  // highlight
    }
    const QPointF centre(width() / 2, height() / 2);
    const double r = radius();

    RibbonBuilder grid;
    for (double elevation : {0.0, 30.0, 60.0}) {
        const auto ring = circle(centre, r * std::cos(elevation * kDegree));
        grid.add(ring.data(), static_cast<int>(ring.size()), gridColor_, elevation == 0 ? 0.6 : 0.4, 1.0);
    }
    for (int azimuth = 0; azimuth < 360; azimuth += 30) {
        const QPointF spoke[2] = {centre, pointFor(azimuth, 0)};
        grid.add(spoke, 2, gridColor_, azimuth % 90 == 0 ? 0.5 : 0.3, 1.0);
    }
    grid.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(0)));

    DiscBuilder dots;
    RibbonBuilder highlight;
    if (events_) {
        for (int row = events_->rowCount() - 1; row >= 0; --row) {  // oldest first, so the newest lie on top
            const double opacity = events_->opacityAt(row);
            if (opacity <= 0) continue;
            const BearingEvent& e = events_->at(row);
            QColor color = colorOf(e.array);
            color.setAlphaF(static_cast<float>(opacity));
            dots.add(pointFor(e.azimuthDeg, e.elevationDeg), confidenceRadius(e.confidence), color);
        }
        const int selected = events_->selectedRow();
        if (selected >= 0) {
            const BearingEvent& e = events_->at(selected);
            const QPointF at = pointFor(e.azimuthDeg, e.elevationDeg);
            const auto ring = circle(at, confidenceRadius(e.confidence) + 3);
            highlight.add(ring.data(), static_cast<int>(ring.size()), highlightColor_, 1.0, 1.0);
            const QPointF line[2] = {centre, at};
            highlight.add(line, 2, highlightColor_, 0.75, 1.0);
        }
    }
    dots.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(1)));
    highlight.fill(static_cast<QSGGeometryNode*>(root->childAtIndex(2)));
    return root;
}

}  // namespace isochron::ui
