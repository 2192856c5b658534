// Simulated microphone-array recordings for the capture and localization benchmarks: the project's
// acoustic simulator (tests/support/acoustic_simulator.h) writes them, with their ground truth.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isochron::bench {

/// What to simulate: noise bursts from seeded random azimuths, one every `spacingSeconds`. [value type]
struct ArrayRecordingSpec {
    std::string geometry = "square4:0.2";  ///< preset or geometry file (nodes/spatial/array_geometry.h)
    double seconds = 10;                   ///< recording length
    double spacingSeconds = 0.5;           ///< one source per interval, sounding in its middle
    double burstSeconds = 0.05;            ///< each source's length
    double snrDb = 20;                     ///< unit source RMS over white noise RMS
    bool room = false;                     ///< in a 6 x 5 x 3 m room (sources 1.5 m away) instead of free field
    double absorption = 0.5;               ///< room walls' energy absorption, (0, 1]
    int reflectionOrder = 3;               ///< room reflections per path, 0 .. 4
    std::uint64_t seed = 1;
};

/// One simulated source. [value type]
struct TrueSource {
    double startSeconds;
    double endSeconds;
    double azimuthDegrees;
};

/// A written recording and what is in it. [value type]
struct ArrayRecording {
    std::filesystem::path path;  ///< float WAV, one channel per mic
    std::vector<TrueSource> sources;
};

/// Simulates `spec` into `path` (a float WAV). [slow: seconds for long rooms]
ArrayRecording simulateArrayRecording(const ArrayRecordingSpec& spec, const std::filesystem::path& path);

}  // namespace isochron::bench
