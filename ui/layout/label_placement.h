// Where the live-value labels of wires go: near the wire, never over a node title, never over one
// another when there is room. No Qt.
#pragma once

#include <vector>

#include "ui/layout/canvas_rect.h"

namespace isochron::ui {

/// One label to place: points on its wire it may sit next to (best first) and its size. [value type]
struct LabelRequest {
    struct Point {
        double x, y;
    };
    std::vector<Point> anchors;
    double width = 0, height = 0;
};

/// A rectangle per request, tried just above, just below and centred on each anchor, then further
/// above and below them step by step (half a label's height, up to two heights), each centred on
/// the anchor, else starting there, else ending there: the first that
/// overlaps no obstacle and no label placed before it; when none is free, the one with the least
/// overlap (obstacles weigh ten times more than labels). Requests without anchors get an empty
/// rectangle at (0, 0). [any thread]
std::vector<CanvasRect> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<CanvasRect>& obstacles);

}  // namespace isochron::ui
