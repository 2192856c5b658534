#include "ui/canvas/wire_layer.h"

#include <QSGGeometryNode>

#include "ui/canvas/ribbon_geometry.h"

namespace isochron::ui {
namespace {

constexpr int kSegments = 32;  // straight pieces per wire; smooth at any zoom a canvas is used at

void addWire(RibbonBuilder& ribbons, const WireGeometry& wire, QColor color, double halfWidth, double fringe) {
    QPointF points[kSegments + 1];
    for (int i = 0; i <= kSegments; ++i) points[i] = wire.pointAt(static_cast<double>(i) / kSegments);
    ribbons.add(points, kSegments + 1, color, halfWidth, fringe);
}

}  // namespace

WireLayer::WireLayer(QQuickItem* parent) : QQuickItem(parent) { setFlag(ItemHasContents, true); }

void WireLayer::setEdges(EdgeListModel* edges) {
    if (edges_ == edges) return;
    disconnect(geometryConnection_);
    edges_ = edges;
    if (edges_) geometryConnection_ = connect(edges_, &EdgeListModel::geometryChanged, this, &QQuickItem::update);
    Q_EMIT edgesChanged();
    update();
}

void WireLayer::setPixelSize(qreal size) {
    if (qFuzzyCompare(size, pixelSize_) || size <= 0) return;
    pixelSize_ = size;
    Q_EMIT pixelSizeChanged();
    update();
}

void WireLayer::setDragActive(bool active) {
    if (active == dragActive_) return;
    dragActive_ = active;
    Q_EMIT dragChanged();
    update();
}

void WireLayer::setDragFrom(QPointF point) {
    if (point == dragFrom_) return;
    dragFrom_ = point;
    Q_EMIT dragChanged();
    update();
}

void WireLayer::setDragTo(QPointF point) {
    if (point == dragTo_) return;
    dragTo_ = point;
    Q_EMIT dragChanged();
    update();
}

void WireLayer::setDragColor(const QColor& color) {
    if (color == dragColor_) return;
    dragColor_ = color;
    Q_EMIT dragChanged();
    update();
}

void WireLayer::setSelectionColor(const QColor& color) {
    if (color == selectionColor_) return;
    selectionColor_ = color;
    Q_EMIT selectionColorChanged();
    update();
}

QSGNode* WireLayer::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    RibbonBuilder ribbons;
    const double fringe = pixelSize_;
    if (edges_) {
        for (const WireGeometry& wire : edges_->geometry()) {
            const double half = (wire.bus ? 2.2 : 1.2) * pixelSize_;
            if (wire.selected) addWire(ribbons, wire, selectionColor_, half + 2.0 * pixelSize_, fringe);
            QColor color = wire.color;
            if (wire.broken) color.setAlphaF(0.6);
            addWire(ribbons, wire, color, half, fringe);
        }
    }
    if (dragActive_) addWire(ribbons, WireGeometry{dragFrom_, dragTo_}, dragColor_, 1.4 * pixelSize_, fringe);
    auto* node = old ? static_cast<QSGGeometryNode*>(old) : RibbonBuilder::createNode();
    ribbons.fill(node);
    return node;
}

}  // namespace isochron::ui
