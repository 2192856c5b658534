// Round values for a plot's grid lines and axis labels. No Qt.
#pragma once

#include <vector>

namespace isochron::ui {

/// A step of 1, 2 or 5 times a power of ten giving about `count` intervals over `span` (> 0).
double niceStep(double span, int count);

/// The multiples of niceStep(high - low, count) within [low, high], ascending (exact zero when the
/// range crosses it). Empty when high <= low. [any thread]
std::vector<double> niceTicks(double low, double high, int count);

}  // namespace isochron::ui
