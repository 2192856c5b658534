// Past localization events from a stream archive: the events a localizer emitted (spatial.source_tracker,
// spatial.bearing_tracker, spatial.srp_phat ...: attributes azimuth_deg, elevation_deg, confidence,
// track_id) as io.archive_sink stored them (docs/archive.md), read back as the bearings the Localization
// tab shows live. No Qt.
#pragma once

#include <string>
#include <vector>

#include "ui/localization/bearing_event.h"

namespace isochron::ui {

/// The localization events of the item stream `stream` of the archive `path` that start in
/// [fromSeconds, toSeconds) (seconds from the stream's sample 0, as the Archive tab and
/// io.archive_source count), oldest first, in the seconds a live run shows (sample index / rate).
/// Items without an azimuth_deg attribute (other events, scalars) are left out. Throws ArchiveError
/// saying what is wrong: not an archive, no such stream, a signal stream, nothing stored in the
/// interval, or no localization event among what is. [any thread] [reads the disk]
std::vector<BearingEvent> readArchivedBearings(const std::string& path, const std::string& stream, double fromSeconds, double toSeconds);

}  // namespace isochron::ui
