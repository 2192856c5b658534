// Anti-aliased filled discs for the scene graph (the localization view's dots): each disc is a
// triangle fan with a one-pixel fringe fading to transparent, all in one vertex-coloured geometry,
// drawn with the same material as the ribbons (ribbon_geometry.h).
#pragma once

#include <QColor>
#include <QPointF>
#include <QSGGeometry>

#include <vector>

class QSGGeometryNode;

namespace isochron::ui {

/// Collects discs, then fills one indexed geometry. [render thread]
class DiscBuilder {
public:
    /// A disc of `radius` (item units) at `centre`, with a `fringe`-wide transparent edge.
    void add(QPointF centre, double radius, QColor color, double fringe = 1.0);
    /// Put everything into `node` (one made by RibbonBuilder::createNode()).
    void fill(QSGGeometryNode* node) const;

private:
    std::vector<QSGGeometry::ColoredPoint2D> vertices_;
    std::vector<quint32> indices_;
};

}  // namespace isochron::ui
