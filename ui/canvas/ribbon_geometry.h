// Anti-aliased polylines for the scene graph: each line becomes a ribbon of triangles with a
// one-pixel transparent fringe on both sides, so wires and plot lines are smooth without
// multisampling. All lines of an item go into one geometry (one draw call).
#pragma once

#include <QColor>
#include <QPointF>
#include <QSGGeometry>

#include <vector>

class QSGGeometryNode;

namespace isochron::ui {

/// Puts indexed, vertex-coloured triangles into `node` (one made by RibbonBuilder::createNode()). [render thread]
void fillColoredGeometry(QSGGeometryNode* node, const std::vector<QSGGeometry::ColoredPoint2D>& vertices,
                         const std::vector<quint32>& indices);

/// Collects ribbons, then fills one indexed, vertex-coloured geometry. [render thread]
class RibbonBuilder {
public:
    /// A polyline through `points` of width 2 * halfWidth, with a fringe of `fringe` (one pixel in the
    /// item's units) fading to transparent.
    void add(const QPointF* points, int count, QColor color, double halfWidth, double fringe);
    bool empty() const { return vertices_.empty(); }
    /// Put everything into `node` (creating its geometry and material on first use).
    void fill(QSGGeometryNode* node) const;
    /// A node ready for fill(). The caller owns it.
    static QSGGeometryNode* createNode();

private:
    std::vector<QSGGeometry::ColoredPoint2D> vertices_;
    std::vector<quint32> indices_;
};

}  // namespace isochron::ui
