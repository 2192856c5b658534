#include "ui/plots/disc_geometry.h"

#include <QSGGeometryNode>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ui/canvas/ribbon_geometry.h"

namespace isochron::ui {

void DiscBuilder::add(QPointF centre, double radius, QColor color, double fringe) {
    const int segments = std::clamp(static_cast<int>(radius * 2.5), 12, 48);
    const auto base = static_cast<quint32>(vertices_.size());
    const float alpha = static_cast<float>(color.alphaF());
    const QSGGeometry::ColoredPoint2D solid{static_cast<float>(centre.x()), static_cast<float>(centre.y()), static_cast<uchar>(color.red() * alpha),
                                            static_cast<uchar>(color.green() * alpha), static_cast<uchar>(color.blue() * alpha),
                                            static_cast<uchar>(255 * alpha)};
    vertices_.push_back(solid);
    for (int i = 0; i < segments; ++i) {
        const double angle = 2 * std::numbers::pi * i / segments;
        const double c = std::cos(angle), s = std::sin(angle);
        QSGGeometry::ColoredPoint2D inner = solid, outer{0, 0, 0, 0, 0, 0};
        inner.x = static_cast<float>(centre.x() + c * radius);
        inner.y = static_cast<float>(centre.y() + s * radius);
        outer.x = static_cast<float>(centre.x() + c * (radius + fringe));
        outer.y = static_cast<float>(centre.y() + s * (radius + fringe));
        vertices_.push_back(inner);
        vertices_.push_back(outer);
    }
    for (int i = 0; i < segments; ++i) {
        const quint32 inner = base + 1 + 2 * static_cast<quint32>(i), outer = inner + 1;
        const quint32 nextInner = base + 1 + 2 * static_cast<quint32>((i + 1) % segments), nextOuter = nextInner + 1;
        indices_.insert(indices_.end(), {base, inner, nextInner, inner, outer, nextInner, outer, nextOuter, nextInner});
    }
}

void DiscBuilder::fill(QSGGeometryNode* node) const { fillColoredGeometry(node, vertices_, indices_); }

}  // namespace isochron::ui
