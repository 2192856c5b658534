#include "nodes/spatial/steering_schedule.h"

#include <cmath>

namespace isochron {

std::optional<std::string> SteeringSchedule::offer(const Item& event) {
    const EventRecord* record = event.event();
    if (!record) return std::string("a steering item that is not an event was ignored");
    if (trackId_ >= 0) {
        const std::optional<double> track = record->get("track_id");
        if (!track || std::llround(*track) != trackId_) return std::nullopt;
    }
    std::optional<double> azimuth = record->get("track_azimuth_deg");
    if (!azimuth) azimuth = record->get("azimuth_deg");
    if (!azimuth || !std::isfinite(*azimuth)) {
        return "steering event '" + std::string(record->label()) + "' has no azimuth_deg (nor track_azimuth_deg); ignored";
    }
    Change change;
    change.start = event.range().startTime();
    change.angles.azimuthDegrees = *azimuth;
    const std::optional<double> elevation = record->get("elevation_deg");
    change.angles.elevationDegrees = elevation && std::isfinite(*elevation) ? *elevation : current_.elevationDegrees;
    if (!pending_.empty() && change.start < pending_[pending_.size() - 1].start) change.start = pending_[pending_.size() - 1].start;
    pending_.push(std::move(change));
    return std::nullopt;
}

LookAngles SteeringSchedule::at(TimeNs t) {
    while (!pending_.empty() && pending_.front().start <= t) current_ = pending_.pop().angles;
    return current_;
}

}  // namespace isochron
