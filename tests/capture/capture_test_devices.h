// The virtual capture devices every capture test uses, and what each one plays.
//
//   isochron_pattern4  4 channels: kPatternFrames frames of patternSample(frame, channel),
//                      a value unique to each channel and frame (modulo 4096), then silence
//   isochron_failing4  the same, but the stream breaks after its first few blocks (a vanished device)
//   isochron_stalling4 the pattern's first kStallingFrames frames, then nothing ever (a hung device)
//   isochron_scene4    4-mic square (0.2 m side), simulated at 48 kHz: a simulated scene of kSceneSources noise
//                      bursts from known directions (sceneSources()) at 20 dB SNR, then silence
//   isochron_speakers  a playback device writing what it plays to playbackRecording(kSpeakers)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace isochron::test {

inline constexpr std::int64_t kPatternFrames = 48000;
inline constexpr std::int64_t kStallingFrames = 2048;
inline constexpr int kSceneSources = 4;
inline constexpr double kSceneSeconds = 3.0;
inline constexpr const char* kSpeakers = "isochron_speakers";

/// The pattern device's sample of `channel` in frame `frame` (< kPatternFrames): a multiple of
/// 2^-15 in [-0.5, 0.5), exact in float.
inline float patternSample(std::int64_t frame, int channel) {
    return static_cast<float>((frame % 4096) * 8 + channel - 16384) / 32768.0f;
}

/// One source of the scene device. [value type]
struct SceneSource {
    double azimuthDegrees;
    double onsetSeconds;  ///< when its sound reaches the array's centre
};

/// The scene device's sources, in time order.
const std::vector<SceneSource>& sceneSources();

/// Installs the devices above (once per process, before PortAudio starts) and returns the
/// ALSA_CONFIG_PATH value that shows them (already set in this process's environment).
const std::string& useTestCaptureDevices();

}  // namespace isochron::test
