// SteeringSchedule: where a beamformer looks, sample by sample, from a fixed direction and the
// direction events of a localizer or tracker.
//
// An event steers from the start of its range on (the direction was estimated from those samples,
// so they are heard from there) until the next accepted event's start. Events are accepted when they
// carry an azimuth — track_azimuth_deg (spatial.bearing_tracker's filtered one) if present, else
// azimuth_deg — and, when a track is chosen, that track's track_id. elevation_deg is used when
// present, else the fixed elevation. Before the first accepted event, the fixed direction holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/items/item.h"
#include "engine/runtime/ring_buffer.h"

namespace isochron {

/// A look direction in degrees. [value type]
struct LookAngles {
    double azimuthDegrees = 0.0;
    double elevationDegrees = 0.0;
    bool operator==(const LookAngles&) const = default;
};

/// The direction in force at each time. [one thread] [no system allocation once warmed up]
class SteeringSchedule {
public:
    /// `trackId` < 0: every event steers; else only events of that track.
    SteeringSchedule(LookAngles fixed, std::int64_t trackId) : current_(fixed), trackId_(trackId) {}

    /// Replace the fixed direction (a live parameter change); it holds until the next event.
    void setFixed(LookAngles fixed) { current_ = fixed; }

    /// Offer one event; returns a reason when it is ignored for a problem worth a warning (no
    /// azimuth), nullopt otherwise (accepted, or of another track). [no allocation unless warning]
    std::optional<std::string> offer(const Item& event);

    /// The direction at time `t`, moving past every accepted event that starts at or before t.
    /// Times must not decrease between calls. [no allocation]
    LookAngles at(TimeNs t);

    /// Whether every accepted event has been used (none waits for a later time).
    bool idle() const { return pending_.empty(); }

private:
    struct Change {
        TimeNs start = 0;
        LookAngles angles;
    };

    LookAngles current_;
    std::int64_t trackId_;
    RingBuffer<Change> pending_;
};

}  // namespace isochron
