// Where bearing lines from arrays at known places meet: the least-squares point shared by
// spatial.triangulate and spatial.triangulate_joined.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "engine/items/event_record.h"

namespace isochron {

/// Where one array is on the map: its origin (m) and the map direction of its azimuth 0 (degrees,
/// counter-clockwise from the map's x axis). [value type]
struct ArrayPose {
    Eigen::Vector2d position;
    double headingDegrees;
};

/// One array's bearing of a sound: azimuth in the array's frame (deg) and a weight (confidence).
struct Bearing {
    double azimuthDegrees;
    double weight;
};

/// The point where bearings meet, or why there is none. [value type]
struct BearingIntersection {
    std::optional<Eigen::Vector2d> position;
    double residualMetres = 0;  ///< RMS distance of the position from the bearing lines
    std::string problem;        ///< set when there is no position
};

/// Poses from `array_poses` (x, y, heading per array); throws std::invalid_argument when the count
/// does not match `arrays`. [any thread] [allocates]
std::vector<ArrayPose> arrayPosesFrom(const std::vector<double>& numbers, int arrays);

/// The point minimising the weighted sum of squared distances to the bearing lines,
/// x = (Σ w n nᵀ)⁻¹ Σ w n nᵀ a (n the lines' normals, a the arrays' origins). No position when the
/// lines are (nearly) parallel, an azimuth is not finite, or the point lies behind an array.
/// `poses` and `bearings` are index-aligned. [any thread] [no allocation on success]
BearingIntersection intersectBearings(std::span<const ArrayPose> poses, std::span<const Bearing> bearings);

/// A position event's record from `meet` (which has a position): x_m, y_m, residual_m. [engine thread]
EventRecord* positionRecord(const BearingIntersection& meet);

/// A position event's score: the bearings' mean weight (each at least 1e-3). [any thread] [no allocation]
double meanBearingWeight(std::span<const Bearing> bearings);

}  // namespace isochron
