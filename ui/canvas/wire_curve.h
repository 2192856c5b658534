// The shape of a wire: a cubic Bézier leaving the output and entering the input horizontally, or,
// from a node back into itself, an arc under the node. Shared by the wire layer (drawing) and the
// edge model (hit tests, label places).
#pragma once

#include <QPointF>

#include <algorithm>
#include <cmath>

#include "ui/layout/canvas_rect.h"

namespace isochron::ui {

/// Point at parameter t in [0, 1] along the cubic Bézier with these control points.
inline QPointF cubicPoint(QPointF p0, QPointF p1, QPointF p2, QPointF p3, double t) {
    const double u = 1 - t;
    return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
}

/// Point at parameter t in [0, 1] along the wire from `from` (an output) to `to` (an input).
inline QPointF wireCurvePoint(QPointF from, QPointF to, double t) {
    const double reach = std::max(40.0, std::abs(to.x() - from.x()) * 0.5);
    return cubicPoint(from, QPointF(from.x() + reach, from.y()), QPointF(to.x() - reach, to.y()), to, t);
}

/// Point at parameter t in [0, 1] along a wire from a node's output back into one of its own inputs:
/// an arc that leaves the output rightwards, passes under the node at `belowY` and enters the input
/// from the left. The plain curve would run behind the node and show only two stubs.
inline QPointF loopCurvePoint(QPointF from, QPointF to, double belowY, double t) {
    constexpr double kReach = 40;
    const QPointF bottom((from.x() + to.x()) / 2, belowY);
    if (t < 0.5) return cubicPoint(from, QPointF(from.x() + kReach, from.y()), QPointF(from.x() + kReach, belowY), bottom, 2 * t);
    return cubicPoint(bottom, QPointF(to.x() - kReach, belowY), QPointF(to.x() - kReach, to.y()), to, 2 * t - 1);
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
