// What the localization view shows: bearings (one per detected sound and array) and triangulated
// source positions, in seconds of the stream (sample index / rate, so 0 is the first sample of the
// recording or capture), with azimuths counter-clockwise from the array's front (x) as in
// docs/design/localization.md.
#pragma once

namespace isochron::ui {

/// One detected sound's direction from one array. [value type]
struct BearingEvent {
    double startSeconds = 0;   ///< the sound's range on the stream, s
    double endSeconds = 0;
    double azimuthDeg = 0;     ///< [0, 360), counter-clockwise from the front
    double elevationDeg = 0;   ///< [-90, 90], above the array's plane
    double confidence = 0;     ///< [0, 1]: 0 no clear direction, 1 one clean plane wave
    int array = 0;             ///< which array (the tap's input)
    int trackId = -1;          ///< the bearing tracker's track, -1 without one
};

/// One sound's position from the bearings of several arrays (spatial.triangulate). [value type]
struct SourcePosition {
    double startSeconds = 0;
    double endSeconds = 0;
    double xMetres = 0;        ///< map coordinates of the array poses (x front, y left)
    double yMetres = 0;
    double residualMetres = 0; ///< RMS distance of the bearing lines from the point
};

/// Opacity of a mark `ageSeconds` old in a history of `historySeconds`: 1 when new, 0 at the end
/// of the history, scaled by confidence so that a doubtful bearing never looks certain. [any thread]
double fadedOpacity(double ageSeconds, double historySeconds, double confidence);

/// Radius (px) of a bearing's dot: 3 px for confidence 0 up to 9 px for 1. [any thread]
double confidenceRadius(double confidence);

}  // namespace isochron::ui
