#include "ui/plots/decimation.h"

#include <algorithm>

namespace isochron::ui {

std::vector<PlotPoint> decimateMinMax(const SeriesRing& series, double from, double to, int columns) {
    std::vector<PlotPoint> out;
    const std::size_t n = series.size();
    if (n == 0 || columns < 1 || to <= from) return out;
    // First point at or after `from` (times are non-decreasing), by binary search.
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (series.time(mid) < from) lo = mid + 1;
        else hi = mid;
    }
    std::size_t i = lo;
    if (i > 0) {
        --i;
        out.push_back({series.time(i), series.value(i)});
        ++i;
    }
    const double width = (to - from) / columns;
    out.reserve(2 * static_cast<std::size_t>(columns) + 4);
    while (i < n && series.time(i) <= to) {
        const int column = std::min(columns - 1, static_cast<int>((series.time(i) - from) / width));
        const double columnEnd = column == columns - 1 ? to : from + (column + 1) * width;
        std::size_t minAt = i, maxAt = i;
        for (++i; i < n && series.time(i) < columnEnd && series.time(i) <= to; ++i) {
            if (series.value(i) < series.value(minAt)) minAt = i;
            if (series.value(i) > series.value(maxAt)) maxAt = i;
        }
        const std::size_t first = std::min(minAt, maxAt), second = std::max(minAt, maxAt);
        out.push_back({series.time(first), series.value(first)});
        if (second != first) out.push_back({series.time(second), series.value(second)});
    }
    if (i < n) out.push_back({series.time(i), series.value(i)});
    return out;
}

}  // namespace isochron::ui
