#include "ui/layout/free_spot.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace isochron::ui {

namespace {

bool isFree(const std::vector<CanvasRect>& taken, const CanvasRect& box, double gap) {
    return std::none_of(taken.begin(), taken.end(), [&](const CanvasRect& t) { return box.overlaps(t.grown(gap)); });
}

}  // namespace

CanvasRect nearestFreeSpot(const std::vector<CanvasRect>& taken, double width, double height, double x, double y, double step, double gap) {
    const CanvasRect wanted{x, y, width, height};
    if (isFree(taken, wanted, gap)) return wanted;
    // Ring r holds the grid points at Chebyshev distance r, all at least r steps away: once the
    // best free point found is nearer than the next ring, no later ring can beat it.
    CanvasRect best = wanted;
    double bestDistance = std::numeric_limits<double>::max();
    for (int ring = 1; ring <= 200 && ring < bestDistance; ++ring) {
        for (int i = -ring; i <= ring; ++i) {
            for (int j = -ring; j <= ring; ++j) {
                if (std::max(std::abs(i), std::abs(j)) != ring) continue;
                const CanvasRect box{x + i * step, y + j * step, width, height};
                const double distance = std::hypot(i, j);
                if (distance < bestDistance && isFree(taken, box, gap)) {
                    best = box;
                    bestDistance = distance;
                }
            }
        }
    }
    return best;
}

}  // namespace isochron::ui
