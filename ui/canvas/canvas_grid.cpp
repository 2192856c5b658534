#include "ui/canvas/canvas_grid.h"

#include <QSGFlatColorMaterial>
#include <QSGGeometryNode>

#include <cmath>
#include <vector>

namespace isochron::ui {

CanvasGrid::CanvasGrid(QQuickItem* parent) : QQuickItem(parent) { setFlag(ItemHasContents, true); }

void CanvasGrid::changed() {
    Q_EMIT viewChanged();
    update();
}

void CanvasGrid::setOriginX(qreal v) { if (v != originX_) { originX_ = v; changed(); } }
void CanvasGrid::setOriginY(qreal v) { if (v != originY_) { originY_ = v; changed(); } }
void CanvasGrid::setZoom(qreal v) { if (v != zoom_ && v > 0) { zoom_ = v; changed(); } }
void CanvasGrid::setStep(qreal v) { if (v != step_ && v > 0) { step_ = v; changed(); } }
void CanvasGrid::setMinorColor(const QColor& c) { if (c != minorColor_) { minorColor_ = c; changed(); } }
void CanvasGrid::setMajorColor(const QColor& c) { if (c != majorColor_) { majorColor_ = c; changed(); } }

void CanvasGrid::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    update();
}

QSGNode* CanvasGrid::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    // Minor lines fade out when they would be closer than 6 px; then only major lines remain.
    double minor = step_ * zoom_;
    const bool showMinor = minor >= 6;
    double major = minor * 5;
    while (major < 24) major *= 5;
    std::vector<QSGGeometry::Point2D> minorLines, majorLines;
    auto lines = [&](double spacing, std::vector<QSGGeometry::Point2D>& out) {
        const double firstX = std::fmod(originX_, spacing) - (std::fmod(originX_, spacing) > 0 ? spacing : 0);
        for (double x = firstX; x <= width(); x += spacing) {
            out.push_back({static_cast<float>(std::round(x) + 0.5), 0.f});
            out.push_back({static_cast<float>(std::round(x) + 0.5), static_cast<float>(height())});
        }
        const double firstY = std::fmod(originY_, spacing) - (std::fmod(originY_, spacing) > 0 ? spacing : 0);
        for (double y = firstY; y <= height(); y += spacing) {
            out.push_back({0.f, static_cast<float>(std::round(y) + 0.5)});
            out.push_back({static_cast<float>(width()), static_cast<float>(std::round(y) + 0.5)});
        }
    };
    if (showMinor) lines(minor, minorLines);
    lines(major, majorLines);

    auto makeNode = [](QColor color) {
        auto* node = new QSGGeometryNode;
        auto* geometry = new QSGGeometry(QSGGeometry::defaultAttributes_Point2D(), 0);
        geometry->setDrawingMode(QSGGeometry::DrawLines);
        geometry->setLineWidth(1);
        node->setGeometry(geometry);
        node->setFlag(QSGNode::OwnsGeometry);
        auto* material = new QSGFlatColorMaterial;
        material->setColor(color);
        node->setMaterial(material);
        node->setFlag(QSGNode::OwnsMaterial);
        return node;
    };
    QSGNode* root = old;
    if (!root) {
        root = new QSGNode;
        root->appendChildNode(makeNode(minorColor_));
        root->appendChildNode(makeNode(majorColor_));
    }
    auto fill = [](QSGGeometryNode* node, const std::vector<QSGGeometry::Point2D>& points, QColor color) {
        node->geometry()->allocate(static_cast<int>(points.size()));
        std::copy(points.begin(), points.end(), node->geometry()->vertexDataAsPoint2D());
        static_cast<QSGFlatColorMaterial*>(node->material())->setColor(color);
        node->markDirty(QSGNode::DirtyGeometry | QSGNode::DirtyMaterial);
    };
    fill(static_cast<QSGGeometryNode*>(root->childAtIndex(0)), minorLines, minorColor_);
    fill(static_cast<QSGGeometryNode*>(root->childAtIndex(1)), majorLines, majorColor_);
    return root;
}

}  // namespace isochron::ui
