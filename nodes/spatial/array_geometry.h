// Microphone array geometry and far-field steering.
//
// Coordinates are metres in the array's own frame: x to the front (azimuth 0°), y to the left
// (azimuth 90°), z up. Azimuth is counter-clockwise seen from above, in degrees; elevation is the
// angle above the x-y plane, in degrees. A direction (azimuth, elevation) is the unit vector
//   u = (cos el cos az, cos el sin az, sin el)
// pointing from the array towards the source. A far-field plane wave from u reaches mic m at
//   tau_m = -(p_m . u) / c      seconds relative to the array's origin,
// so mics nearer the source hear it first (negative delay).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace isochron {

/// Positions of an array's microphones, in metres, in the array frame above. [value type]
struct ArrayGeometry {
    std::vector<Eigen::Vector3d> mics;  ///< mic m's position; the order is the channel order
    std::string origin;                 ///< where it came from (preset spec or file path), for messages

    int micCount() const { return static_cast<int>(mics.size()); }
    /// Largest distance between two mics, in metres (0 for fewer than two mics).
    double aperture() const;
    /// Whether every mic has z = 0 (then elevation is ambiguous between up and down).
    bool isPlanar() const;
};

/// The default speed of sound in air at about 20 °C, in m/s.
inline constexpr double kSpeedOfSoundMetresPerSecond = 343.0;

/// Unit vector from the array towards a source at (azimuth, elevation) in degrees. [no allocation]
Eigen::Vector3d directionVector(double azimuthDegrees, double elevationDegrees);

/// Far-field arrival delay of each mic relative to the array origin, in seconds, for a source in
/// direction `towardsSource` (unit vector) and sound speed `speedOfSound` (m/s, > 0). [allocates the result]
std::vector<double> steeringDelays(const ArrayGeometry& geometry, const Eigen::Vector3d& towardsSource,
                                   double speedOfSound = kSpeedOfSoundMetresPerSecond);

/// The preset spelled `spec` ("square4:0.2", "circular6:0.05", "circular8:0.1", "linear4:0.05";
/// the number after ':' is the side, radius or spacing in metres, > 0). Throws std::invalid_argument
/// saying what is wrong. Layouts:
///   square4:s    corners (±s/2, ±s/2, 0), counter-clockwise from the front-left one at azimuth 45°
///   circularN:r  mic i at azimuth 360° i / N on a horizontal circle of radius r (mic 0 at the front)
///   linearN:d    N mics along y, spaced d, centred, from right (-y) to left (+y); broadside = front
ArrayGeometry presetGeometry(std::string_view spec);

/// The geometry in the JSON text `{"mics": [[x, y, z], ...]}` (metres, at least two mics, no two at
/// the same place). `sourceName` names the text in errors. Throws std::invalid_argument.
ArrayGeometry parseGeometryJson(std::string_view jsonText, const std::string& sourceName);

/// Where a geometry taken from the positions its inputs carry says it came from (ArrayGeometry::origin).
inline constexpr const char* kPositionsFromInputs = "the mic positions its inputs carry";

/// A preset, a geometry file, or (text starting with '{', as adoptInputGeometry writes it) the
/// geometry's JSON itself. `spec` is a preset spelling, possibly behind a folder because graph
/// paths are resolved relative to the graph file ("/graphs/square4:0.2" is the preset "square4:0.2"
/// unless such a file exists), or the path of a JSON file. Throws std::invalid_argument whose message
/// names the file or preset and the problem. [setup; reads files]
ArrayGeometry loadGeometry(const std::string& spec);

}  // namespace isochron
