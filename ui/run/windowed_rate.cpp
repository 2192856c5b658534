#include "ui/run/windowed_rate.h"

#include <algorithm>

namespace isochron::ui {

void WindowedRate::add(double t, std::uint64_t count) {
    now_ = t;
    if (changes_.empty() || count != changes_.back().count) changes_.push_back(Change{t, count});
    while (changes_.size() >= 2 && changes_[1].t <= t - kRateWindowSeconds) changes_.pop_front();
}

double WindowedRate::perSecond() const {
    if (changes_.size() < 2) return 0;
    const Change& first = changes_.front();
    const Change& last = changes_.back();
    const double between = last.t - first.t;
    const double usualSpacing = between / static_cast<double>(changes_.size() - 1);
    const double span = std::max(between, now_ - first.t - usualSpacing);
    return span > 0 ? static_cast<double>(last.count - first.count) / span : 0;
}

}  // namespace isochron::ui
