// Reduces a long series to about two points per pixel column (its minimum and maximum there, in
// time order), so a plot draws the same envelope however many points it holds. No Qt.
#pragma once

#include <vector>

#include "ui/plots/series_ring.h"

namespace isochron::ui {

/// One point to draw, in data units. [value type]
struct PlotPoint {
    double time;
    double value;
};

/// The points of `series` within [from, to] reduced to at most 2 per column of `columns` equal
/// slices of that span (plus the nearest point on each side, so the line reaches the edges).
/// Each column keeps its extreme values in the order they occurred. [any thread]
std::vector<PlotPoint> decimateMinMax(const SeriesRing& series, double from, double to, int columns);

}  // namespace isochron::ui
