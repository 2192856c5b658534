#include "ui/canvas/ribbon_geometry.h"

#include <QSGGeometryNode>
#include <QSGVertexColorMaterial>

#include <algorithm>
#include <cmath>

namespace isochron::ui {

void RibbonBuilder::add(const QPointF* points, int count, QColor color, double halfWidth, double fringe) {
    if (count < 2) return;
    const auto base = static_cast<quint32>(vertices_.size());
    const float alpha = static_cast<float>(color.alphaF());
    const QSGGeometry::ColoredPoint2D solid{0, 0, static_cast<uchar>(color.red() * alpha), static_cast<uchar>(color.green() * alpha),
                                            static_cast<uchar>(color.blue() * alpha), static_cast<uchar>(255 * alpha)};
    const QSGGeometry::ColoredPoint2D clear{0, 0, 0, 0, 0, 0};
    const double offsets[4] = {-(halfWidth + fringe), -halfWidth, halfWidth, halfWidth + fringe};
    for (int i = 0; i < count; ++i) {
        // The normal at a point averages its two neighbouring segments, so pieces join without gaps.
        const QPointF ahead = points[std::min(i + 1, count - 1)] - points[std::max(i - 1, 0)];
        const double length = std::hypot(ahead.x(), ahead.y());
        const QPointF normal = length > 0 ? QPointF(-ahead.y() / length, ahead.x() / length) : QPointF(0, 1);
        for (int k = 0; k < 4; ++k) {
            QSGGeometry::ColoredPoint2D v = (k == 0 || k == 3) ? clear : solid;
            v.x = static_cast<float>(points[i].x() + normal.x() * offsets[k]);
            v.y = static_cast<float>(points[i].y() + normal.y() * offsets[k]);
            vertices_.push_back(v);
        }
    }
    for (quint32 i = 0; i + 1 < static_cast<quint32>(count); ++i) {
        for (quint32 band = 0; band < 3; ++band) {
            const quint32 a = base + i * 4 + band, b = a + 1, c = a + 4, d = a + 5;
            indices_.insert(indices_.end(), {a, b, c, b, d, c});
        }
    }
}

QSGGeometryNode* RibbonBuilder::createNode() {
    auto* node = new QSGGeometryNode;
    auto* geometry = new QSGGeometry(QSGGeometry::defaultAttributes_ColoredPoint2D(), 0, 0, QSGGeometry::UnsignedIntType);
    geometry->setDrawingMode(QSGGeometry::DrawTriangles);
    node->setGeometry(geometry);
    node->setFlag(QSGNode::OwnsGeometry);
    node->setMaterial(new QSGVertexColorMaterial);
    node->setFlag(QSGNode::OwnsMaterial);
    return node;
}

void fillColoredGeometry(QSGGeometryNode* node, const std::vector<QSGGeometry::ColoredPoint2D>& vertices,
                         const std::vector<quint32>& indices) {
    QSGGeometry* geometry = node->geometry();
    geometry->allocate(static_cast<int>(vertices.size()), static_cast<int>(indices.size()));
    std::copy(vertices.begin(), vertices.end(), geometry->vertexDataAsColoredPoint2D());
    std::copy(indices.begin(), indices.end(), geometry->indexDataAsUInt());
    node->markDirty(QSGNode::DirtyGeometry);
}

void RibbonBuilder::fill(QSGGeometryNode* node) const { fillColoredGeometry(node, vertices_, indices_); }

}  // namespace isochron::ui
