// Acoustic simulator for microphone-array tests: known sources, known directions, seeded noise.
//
// Each event is a source signal (click, chirp or band-limited noise burst) at a direction and
// distance from the array's origin. It reaches each mic along the direct path and, in a shoebox
// room, along the image-source paths of Allen & Berkley (1979) up to a reflection order, each with
// gain (reflection coefficient)^reflections x (source distance / path length), i.e. 1/r spreading
// normalised so that the direct sound at the array's origin has the source's amplitude. Every path's
// fractional delay is applied exactly (band-limited) in the frequency domain. White Gaussian noise is
// added to every mic at a given SNR relative to a unit-amplitude source. Everything is seeded: the
// same scene gives the same samples on every run and platform (own Gaussian generator on mt19937_64).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "nodes/spatial/array_geometry.h"

namespace isochron::test {

/// The waveform a source emits.
enum class SourceKind {
    Click,       ///< a unit impulse band-limited to [lowHz, highHz], Hann-windowed over the duration
    Chirp,       ///< a linear sweep lowHz -> highHz over the duration, 5 ms raised-cosine fades
    NoiseBurst,  ///< Gaussian noise band-limited to [lowHz, highHz], 5 ms raised-cosine fades (seeded)
    Recording,   ///< `recording` (at the scene's rate) band-limited to [lowHz, highHz]; durationSeconds is ignored
};

/// What one source emits; every kind is scaled to unit RMS over its duration. [value type]
struct SourceSignal {
    SourceKind kind = SourceKind::NoiseBurst;
    double durationSeconds = 0.05;  ///< > 0
    double lowHz = 300.0;           ///< [0, highHz)
    double highHz = 6000.0;         ///< (lowHz, rate / 2]
    std::uint64_t seed = 1;         ///< NoiseBurst only
    std::vector<double> recording;  ///< Recording only: the waveform, at least one sample
};

/// The source's samples at `rateHz`. Throws std::invalid_argument for a band outside (0, rate / 2].
std::vector<double> makeSourceSignal(const SourceSignal& signal, double rateHz);

/// A shoebox room with the array inside it; the array's axes are the room's. [value type]
struct ShoeboxRoom {
    Eigen::Vector3d sizeMetres{6.0, 5.0, 3.0};      ///< room extent along x, y, z from the corner (0, 0, 0)
    Eigen::Vector3d arrayPosition{2.5, 2.0, 1.5};   ///< the array's origin in room coordinates
    double absorption = 0.5;                        ///< energy absorbed per wall reflection, (0, 1]
    int maxOrder = 2;                               ///< reflections per path, 0 .. 4
};

/// One sound in the scene. [value type]
struct SimulatedEvent {
    double azimuthDegrees = 0.0;     ///< direction of the source from the array's origin
    double elevationDegrees = 0.0;
    double distanceMetres = 5.0;     ///< > 0; in a room, the source must lie inside it
    std::int64_t onsetSample = 0;    ///< when the direct sound reaches the array's origin
    double amplitude = 1.0;          ///< RMS at the array's origin (direct path)
    SourceSignal signal;
};

/// A whole recording to simulate. [value type]
struct Scene {
    ArrayGeometry geometry;
    double rateHz = 48000.0;
    std::int64_t lengthSamples = 48000;
    std::vector<SimulatedEvent> events;
    /// 10 log10(1 / noise variance): the SNR of a unit-amplitude source; nullopt = no noise.
    std::optional<double> snrDb;
    std::optional<ShoeboxRoom> room;  ///< nullopt = free field
    double speedOfSound = kSpeedOfSoundMetresPerSecond;
    std::uint64_t noiseSeed = 7;
};

/// The simulated channels, [mic][sample]. Throws std::invalid_argument for an impossible scene.
std::vector<std::vector<float>> simulateScene(const Scene& scene);

/// A source direction in degrees. [value type]
struct LookDirection {
    double azimuthDegrees;
    double elevationDegrees;
};

/// Random directions for accuracy tests: azimuth uniform in [0, 360), elevation uniform in
/// [minElevationDegrees, maxElevationDegrees]. Seeded, the same on every platform.
std::vector<LookDirection> randomDirections(std::size_t count, double minElevationDegrees, double maxElevationDegrees,
                                            std::uint64_t seed);

/// Smallest angle between two azimuths in degrees, in [0, 180].
double azimuthError(double estimatedDegrees, double trueDegrees);

/// Seeded standard normal samples (Box-Muller on mt19937_64: the same on every platform).
class GaussianNoise {
public:
    explicit GaussianNoise(std::uint64_t seed) : engine_(seed) {}
    /// The next N(0, 1) sample.
    double next();
    /// The next uniform sample in [0, 1) (53 random bits).
    double uniform();

private:
    std::mt19937_64 engine_;
    std::optional<double> spare_;
};

}  // namespace isochron::test
