#include "app/bench/array_recording.h"

#include <cmath>
#include <stdexcept>

#include <sndfile.h>

#include "tests/support/acoustic_simulator.h"

namespace isochron::bench {

ArrayRecording simulateArrayRecording(const ArrayRecordingSpec& spec, const std::filesystem::path& path) {
    test::Scene scene;
    scene.geometry = loadGeometry(spec.geometry);
    scene.lengthSamples = std::llround(spec.seconds * scene.rateHz);
    scene.snrDb = spec.snrDb;
    scene.noiseSeed = spec.seed;
    if (spec.room) {
        test::ShoeboxRoom room;
        room.absorption = spec.absorption;
        room.maxOrder = spec.reflectionOrder;
        scene.room = room;
    }
    ArrayRecording recording{path, {}};
    const auto count = static_cast<std::size_t>(spec.seconds / spec.spacingSeconds);
    const auto directions = test::randomDirections(count, 0.0, 0.0, spec.seed);
    for (std::size_t i = 0; i < count; ++i) {
        test::SimulatedEvent event;
        event.azimuthDegrees = directions[i].azimuthDegrees;
        event.distanceMetres = spec.room ? 1.5 : 3.0;
        const double start = (static_cast<double>(i) + 0.5) * spec.spacingSeconds;
        event.onsetSample = std::llround(start * scene.rateHz);
        event.signal = {test::SourceKind::NoiseBurst, spec.burstSeconds, 300.0, 6000.0, spec.seed * 1000 + i};
        scene.events.push_back(event);
        recording.sources.push_back({start, start + spec.burstSeconds, event.azimuthDegrees});
    }
    const auto channels = test::simulateScene(scene);
    SF_INFO info{};
    info.samplerate = static_cast<int>(scene.rateHz);
    info.channels = static_cast<int>(channels.size());
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    if (!file) throw std::runtime_error("cannot write " + path.string() + ": " + sf_strerror(nullptr));
    std::vector<float> interleaved;
    interleaved.reserve(channels.size() * channels.front().size());
    for (std::size_t i = 0; i < channels.front().size(); ++i) {
        for (const auto& channel : channels) interleaved.push_back(channel[i]);
    }
    const auto frames = static_cast<sf_count_t>(channels.front().size());
    const sf_count_t written = sf_writef_float(file, interleaved.data(), frames);
    sf_close(file);
    if (written != frames) throw std::runtime_error("cannot write " + path.string());
    return recording;
}

}  // namespace isochron::bench
