#include "ui/plots/axis_ticks.h"

#include <algorithm>
#include <cmath>

namespace isochron::ui {

double niceStep(double span, int count) {
    const double raw = span / std::max(1, count);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (raw <= factor * magnitude) return factor * magnitude;
    }
    return 10 * magnitude;
}

std::vector<double> niceTicks(double low, double high, int count) {
    std::vector<double> ticks;
    if (!(high > low)) return ticks;
    const double step = niceStep(high - low, count);
    for (double v = std::ceil(low / step) * step; v <= high + step * 1e-6; v += step) ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return ticks;
}

}  // namespace isochron::ui
