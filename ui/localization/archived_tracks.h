// Past tracks for the Localization tab's bearing-time plot. A frame-wise tracker
// (spatial.source_tracker) has three outputs: its sounds (`events`), every track every frame
// (`tracks`) and the background's bearings (`background`). "Record this wire" names a recorded
// output `<node>.<port>`, so past events from a stream `X.events` are tracker X's, and its track
// states and background bearings are in the streams `X.tracks` and `X.background` of the same
// archive when those wires were recorded too. Read back, they are the points a live run's taps gave
// TrackHistory. No Qt.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ui/localization/track_history.h"

namespace isochron::ui {

/// Where a frame-wise tracker's other outputs are recorded, by stream name. [value type]
struct TrackerStreams {
    std::string tracks;      ///< `X.tracks`
    std::string background;  ///< `X.background`
};

/// The tracker streams beside the events stream `eventsStream` when it is named `X.events` (a
/// frame-wise tracker's events as Record this wire names them), else nothing. [any thread]
std::optional<TrackerStreams> trackerStreamsOf(const std::string& eventsStream);

/// A frame-wise tracker's recorded tracks and background over an interval. [value type]
struct ArchivedTracks {
    std::vector<TrackPoint> points;           ///< oldest first, as a live run's `tracks` tap gives them (array 0)
    std::vector<BackgroundPoint> background;  ///< oldest first, as its `background` tap gives them (array 0)
    bool tracksRecorded = false;              ///< the archive holds the tracks stream (points may still be empty)
    bool backgroundRecorded = false;          ///< the archive holds the background stream
};

/// The track states and background bearings of `streams` in the archive `path` that start in
/// [fromSeconds, toSeconds) (seconds from sample 0, as readArchivedBearings counts them), each in
/// the seconds of its own stream's rate. A stream the archive does not hold as items reads as not
/// recorded; items that are not events are left out. Throws ArchiveError when `path` is no
/// archive. [any thread] [reads the disk]
ArchivedTracks readArchivedTracks(const std::string& path, const TrackerStreams& streams, double fromSeconds, double toSeconds);

}  // namespace isochron::ui
