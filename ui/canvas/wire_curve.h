// The shape of a wire: a cubic Bézier leaving the output and entering the input horizontally.
// Shared by the wire layer (drawing) and the edge model (hit tests).
#pragma once

#include <QPointF>

#include <algorithm>
#include <cmath>

namespace isochron::ui {

/// Point at parameter t in [0, 1] along the wire from `from` (an output) to `to` (an input).
inline QPointF wireCurvePoint(QPointF from, QPointF to, double t) {
    const double reach = std::max(40.0, std::abs(to.x() - from.x()) * 0.5);
    const QPointF c1(from.x() + reach, from.y()), c2(to.x() - reach, to.y());
    const double u = 1 - t;
    return u * u * u * from + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * to;
}

}  // namespace isochron::ui
