#include "ui/localization/track_history.h"

#include <algorithm>

namespace isochron::ui {

TrackHistory::TrackHistory(QObject* parent) : QObject(parent) {}

void TrackHistory::append(const std::vector<TrackPoint>& points, const std::vector<BackgroundPoint>& background) {
    if (points.empty() && background.empty()) return;
    points_.insert(points_.end(), points.begin(), points.end());
    background_.insert(background_.end(), background.begin(), background.end());
    double newest = 0;
    if (!points_.empty()) newest = points_.back().seconds;
    if (!background_.empty()) newest = std::max(newest, background_.back().seconds);
    while (!points_.empty() && points_.front().seconds < newest - kKeptSeconds) points_.pop_front();
    while (!background_.empty() && background_.front().seconds < newest - kKeptSeconds) background_.pop_front();
    Q_EMIT changed();
}

void TrackHistory::clear() {
    points_.clear();
    background_.clear();
    Q_EMIT changed();
}

}  // namespace isochron::ui
