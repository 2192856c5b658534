// Where the live-value labels of wires go: near the wire, never over a node title, never over one
// another when there is room. No Qt.
#pragma once

#include <cstddef>
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

/// How much work placeLabels did, for tests that hold it to a bound. [value type]
struct LabelPlacementWork {
    std::size_t rectsExamined = 0;  ///< obstacles and labels looked at to find those near a label
};

/// A rectangle per request, tried just above, just below and centred on each anchor, then further
/// above and below them step by step (half a label's height, up to two heights), each centred on
/// the anchor, else starting there, else ending there: the first that
/// overlaps no obstacle and no label placed before it; when none is free, the one with the least
/// overlap (obstacles weigh ten times more than labels). Requests without anchors get an empty
/// rectangle at (0, 0). Each label looks only at the obstacles and labels filed in the cells of a
/// grid around it, so placing n labels among n nodes takes about n steps, not n². `work` (optional)
/// adds what was done. [any thread]
std::vector<CanvasRect> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<CanvasRect>& obstacles,
                                    LabelPlacementWork* work = nullptr);

}  // namespace isochron::ui
