// Auto-layout of a graph in layers, left to right, with few crossings (Sugiyama's method):
// break cycles, assign layers by longest path, add waypoints for edges that skip layers, order
// each layer by barycentre sweeps keeping the order with the fewest crossings, then place nodes
// near the mean height of their neighbours without overlaps. No Qt.
#pragma once

#include <vector>

namespace isochron::ui {

/// A box to place. [value type]
struct LayoutBox {
    double width = 0;
    double height = 0;
};

/// A directed edge between boxes (indices into the box list). [value type]
struct LayoutLink {
    int from = 0;
    int to = 0;
};

/// Spacing between layers and between boxes of one layer, in canvas units.
struct LayoutSpacing {
    double layerGap = 90;
    double boxGap = 36;
};

/// Top-left corners and what the ordering achieved. [value type]
struct LayoutResult {
    std::vector<double> x, y;
    std::vector<int> layer;  ///< column of each box
    int crossings = 0;       ///< edge crossings between adjacent layers (waypoints included)
};

/// Lay out `boxes` joined by `links`; the first layer starts at x = 0 and the top box at y = 0.
LayoutResult layeredLayout(const std::vector<LayoutBox>& boxes, const std::vector<LayoutLink>& links,
                           LayoutSpacing spacing = {});

/// Crossings between straight segments of links drawn from each box's layer and rank to the next
/// layer (links spanning several layers pass through one waypoint per layer). Exposed for tests.
int countLayerCrossings(const std::vector<std::vector<int>>& order, const std::vector<std::vector<int>>& down);

}  // namespace isochron::ui
