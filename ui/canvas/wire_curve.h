// The shape of a wire: a cubic Bézier leaving the output and entering the input horizontally.
// Shared by the wire layer (drawing) and the edge model (hit tests).
#pragma once

#include <QPointF>

#include <algorithm>
#include <cmath>

#include "ui/layout/canvas_rect.h"

namespace isochron::ui {

/// Point at parameter t in [0, 1] along the wire from `from` (an output) to `to` (an input).
inline QPointF wireCurvePoint(QPointF from, QPointF to, double t) {
    const double reach = std::max(40.0, std::abs(to.x() - from.x()) * 0.5);
    const QPointF c1(from.x() + reach, from.y()), c2(to.x() - reach, to.y());
    const double u = 1 - t;
    return u * u * u * from + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * to;
}

/// Whether the wire from `from` to `to` passes over `box` between its ends (sampled at 63 points):
/// wires are drawn under nodes, so one passing under a node looks as if it went into it.
inline bool wirePassesOver(QPointF from, QPointF to, const CanvasRect& box) {
    constexpr int kSamples = 64;
    for (int i = 1; i < kSamples; ++i) {
        const QPointF p = wireCurvePoint(from, to, static_cast<double>(i) / kSamples);
        if (p.x() > box.x && p.x() < box.x + box.width && p.y() > box.y && p.y() < box.y + box.height) return true;
    }
    return false;
}

}  // namespace isochron::ui
