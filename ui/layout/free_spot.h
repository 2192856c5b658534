// Where a new node goes when it would land on another: the nearest free grid point. No Qt.
#pragma once

#include <vector>

#include "ui/layout/canvas_rect.h"

namespace isochron::ui {

/// The top-left corner nearest to (`x`, `y`), among points `step` apart on a grid through it, where
/// a box of `width` × `height` keeps `gap` away from every one of `taken`. (`x`, `y`) itself when
/// it is free; searched outwards up to 200 steps. [any thread]
CanvasRect nearestFreeSpot(const std::vector<CanvasRect>& taken, double width, double height, double x, double y, double step, double gap);

}  // namespace isochron::ui
