#include "ui/localization/bearing_event.h"

#include <algorithm>

namespace isochron::ui {

double fadedOpacity(double ageSeconds, double historySeconds, double confidence) {
    if (historySeconds <= 0) return 0;
    const double fresh = std::clamp(1.0 - std::max(ageSeconds, 0.0) / historySeconds, 0.0, 1.0);
    return fresh * (0.3 + 0.7 * std::clamp(confidence, 0.0, 1.0));
}

double confidenceRadius(double confidence) { return 3.0 + 6.0 * std::clamp(confidence, 0.0, 1.0); }

}  // namespace isochron::ui
