// A rectangle on the canvas (canvas units), for the placement helpers. No Qt.
#pragma once

namespace isochron::ui {

/// Top-left corner and size. [value type]
struct CanvasRect {
    double x = 0, y = 0, width = 0, height = 0;

    /// Whether the two share any area (touching edges do not count).
    bool overlaps(const CanvasRect& o) const { return x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height; }
    /// This rectangle grown by `margin` on every side.
    CanvasRect grown(double margin) const { return {x - margin, y - margin, width + 2 * margin, height + 2 * margin}; }
};

}  // namespace isochron::ui
