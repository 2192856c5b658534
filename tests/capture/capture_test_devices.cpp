#include "tests/capture/capture_test_devices.h"

#include <algorithm>
#include <cmath>

#include "tests/support/virtual_mic_array.h"
#include "tests/support/acoustic_simulator.h"

namespace isochron::test {
namespace {

std::vector<float> patternFrames() {
    std::vector<float> frames;
    for (std::int64_t i = 0; i < kPatternFrames; ++i) {
        for (int c = 0; c < 4; ++c) frames.push_back(patternSample(i, c));
    }
    return frames;
}

/// The scene, scaled so that the loudest burst peaks at 0.8.
std::vector<float> sceneFrames() {
    Scene scene;
    scene.geometry = presetGeometry("square4:0.2");
    scene.lengthSamples = static_cast<std::int64_t>(kSceneSeconds * scene.rateHz);
    scene.snrDb = 20.0;
    for (std::size_t i = 0; i < sceneSources().size(); ++i) {
        SimulatedEvent event;
        event.azimuthDegrees = sceneSources()[i].azimuthDegrees;
        event.distanceMetres = 3.0;
        event.onsetSample = std::llround(sceneSources()[i].onsetSeconds * scene.rateHz);
        event.signal = {SourceKind::NoiseBurst, 0.08, 1000.0, 7000.0, 100 + i};
        scene.events.push_back(event);
    }
    const auto channels = simulateScene(scene);
    float peak = 0;
    for (const auto& channel : channels) {
        for (float v : channel) peak = std::max(peak, std::abs(v));
    }
    const float scale = 0.8f / peak;
    std::vector<float> frames;
    for (std::size_t i = 0; i < channels.front().size(); ++i) {
        for (const auto& channel : channels) frames.push_back(channel[i] * scale);
    }
    return frames;
}

}  // namespace

const std::vector<SceneSource>& sceneSources() {
    static const std::vector<SceneSource> sources = {{30.0, 0.5}, {135.0, 1.1}, {220.0, 1.7}, {300.0, 2.3}};
    return sources;
}

const std::string& useTestCaptureDevices() {
    static const std::string configPath = [] {
        VirtualCaptureDevice pattern{"isochron_pattern4", 4, patternFrames(), false};
        VirtualCaptureDevice failing{"isochron_failing4", 4, pattern.frames, true};
        VirtualCaptureDevice stalling{"isochron_stalling4", 4,
                                      std::vector<float>(pattern.frames.begin(), pattern.frames.begin() + kStallingFrames * 4), false, true};
        VirtualCaptureDevice scene{"isochron_scene4", 4, sceneFrames(), false};
        return installVirtualCaptureDevices({pattern, failing, stalling, scene}, {VirtualPlaybackDevice{kSpeakers}});
    }();
    return configPath;
}

}  // namespace isochron::test
