// isochron-simulate-array: write a simulated microphone-array recording (multichannel WAV) and its
// ground truth (JSON), so that localization samples and benchmarks are generated, not committed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>
#include <sndfile.h>

#include "tests/support/acoustic_simulator.h"

using namespace isochron;
using namespace isochron::test;

namespace {

const char* kUsage = R"(usage: isochron-simulate-array --geometry SPEC --out REC.wav [options]

Simulates sources at seeded random directions around a microphone array and writes a recording with
one channel per mic, in the geometry's mic order: a float WAV (unit-RMS sources), or for a name
ending in .flac a 16-bit FLAC scaled so that its loudest sample is at 0.9 (small enough to bundle).

  --geometry SPEC        preset (square4:0.2, circular8:0.1, linear4:0.05) or {"mics": [[x,y,z],...]} file
  --out FILE.wav|.flac   the recording
  --truth FILE.json      ground truth: every event's t_start, t_end (s, when the sound reaches the array's
                         centre and ends there; a click's span is its impulse, not its window; clipped to
                         the recording, and a source heard only after its end is left out with a message),
                         azimuth_deg, elevation_deg, distance_m
  --geometry-out FILE    the geometry as a JSON file (for isochron-run --set array.geometry=FILE)
  --rate HZ              sampling rate (48000)
  --duration S           recording length in seconds (10)
  --events N             number of sources, evenly spaced in time (8)
  --signal KIND          noise: a band-limited noise burst; chirp: a linear sweep --low-hz to --high-hz;
                         click: one band-limited impulse in the middle of the event's window (noise)
  --event-duration S     each source's length (a click's window) in seconds (0.05)
  --low-hz HZ            source band, low edge (300)
  --high-hz HZ           source band, high edge (6000)
  --snr-db DB            noise: unit source RMS over white noise RMS per sample (20)
  --distance M           source distance from the array centre, also --target's and the interferer's (3);
                         with --room every source must lie inside the room (else an error names it)
  --elevation-max DEG    elevations uniform in [0, DEG] (0)
  --positions MODE       around: sources at --distance around the array (default); room: sources at
                         seeded random places in the room, the same for every --room-array (so runs
                         with one seed and different array positions simulate several arrays hearing
                         the same sounds; onsets include the travel time; the truth has x_m, y_m, z_m)
  --room LX,LY,LZ        shoebox room size in metres (free field if absent)
  --room-array X,Y,Z     array centre in the room (room centre if absent); every mic must be inside
  --absorption A         wall energy absorption, (0, 1] (0.5)
  --order N              image-source reflection order, 0 .. 4 (2)
  --seed N               seed of directions, signals and noise (1)

Two sources to listen to (in place of --events): a recording from one direction, an interferer from another.
  --target FILE.wav      mono recording at --rate, played once from the start (its length sets --duration)
  --target-azimuth DEG   the target's direction (60)
  --interferer KIND      noise | chirp: a source as long as the recording (noise)
  --interferer-azimuth DEG  the interferer's direction (200)
  --interferer-db DB     interferer RMS over the target's RMS at the array's centre (0)
  --reference-out FILE   the target alone as heard at the array's centre (mono float WAV, same scale)
)";

Eigen::Vector3d parseTriple(const std::string& text, const std::string& option) {
    Eigen::Vector3d value;
    char comma1 = 0, comma2 = 0;
    std::istringstream in(text);
    if (!(in >> value.x() >> comma1 >> value.y() >> comma2 >> value.z()) || comma1 != ',' || comma2 != ',') {
        throw std::invalid_argument(option + " takes X,Y,Z in metres, not '" + text + "'");
    }
    return value;
}

double parseNumber(const std::string& text, const std::string& option) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') throw std::invalid_argument(option + " takes a number, not '" + text + "'");
    return value;
}

/// Writes the channels as a float WAV, or (a path ending in .flac) a 16-bit FLAC scaled so that the
/// loudest sample is at 0.9; returns the factor the samples were multiplied by.
double writeRecording(const std::string& path, const std::vector<std::vector<float>>& channels, double rate) {
    SF_INFO info{};
    info.samplerate = static_cast<int>(rate);
    info.channels = static_cast<int>(channels.size());
    const bool flac = path.ends_with(".flac");
    info.format = flac ? SF_FORMAT_FLAC | SF_FORMAT_PCM_16 : SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    double scale = 1.0;
    if (flac) {
        float peak = 0;
        for (const auto& channel : channels) {
            for (float v : channel) peak = std::max(peak, std::abs(v));
        }
        if (peak > 0) scale = 0.9 / peak;
    }
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    if (!file) throw std::runtime_error("cannot write '" + path + "': " + sf_strerror(nullptr));
    std::vector<float> frame(channels.size());
    for (std::size_t i = 0; i < channels.front().size(); ++i) {
        for (std::size_t m = 0; m < channels.size(); ++m) frame[m] = static_cast<float>(channels[m][i] * scale);
        if (sf_writef_float(file, frame.data(), 1) != 1) {
            sf_close(file);
            throw std::runtime_error("cannot write '" + path + "': " + sf_strerror(file));
        }
    }
    sf_close(file);
    return scale;
}

/// The samples of a mono sound file at `rateHz`; throws if it is not mono or at another rate.
std::vector<double> readMono(const std::string& path, double rateHz) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) throw std::runtime_error("cannot read '" + path + "': " + sf_strerror(nullptr));
    std::vector<double> samples(static_cast<std::size_t>(info.frames * info.channels));
    sf_readf_double(file, samples.data(), info.frames);
    sf_close(file);
    if (info.channels != 1 || info.samplerate != rateHz) {
        throw std::invalid_argument("'" + path + "' must be mono at --rate (" + std::to_string(rateHz) + " Hz)");
    }
    return samples;
}

/// The recording from `target` and an interferer for the whole of it, both `distance` metres away in the plane.
std::vector<SimulatedEvent> listenEvents(const std::vector<double>& target, double targetAzimuth, SourceKind interferer,
                                         double interfererAzimuth, double interfererDb, double distance, double rateHz,
                                         std::uint64_t seed) {
    SimulatedEvent voice;
    voice.azimuthDegrees = targetAzimuth;
    voice.distanceMetres = distance;
    voice.signal.kind = SourceKind::Recording;
    voice.signal.recording = target;
    voice.signal.lowHz = 0.0;
    voice.signal.highHz = rateHz / 2.0;
    SimulatedEvent other;
    other.azimuthDegrees = interfererAzimuth;
    other.distanceMetres = distance;
    other.amplitude = std::pow(10.0, interfererDb / 20.0);
    other.signal = {interferer, static_cast<double>(target.size()) / rateHz, 200.0, std::min(6000.0, rateHz / 2.0), seed};
    return {voice, other};
}

/// "(x, y, z)" in metres, for messages.
std::string pointText(const Eigen::Vector3d& point) {
    char text[96];
    std::snprintf(text, sizeof text, "(%.2f, %.2f, %.2f) m", point.x(), point.y(), point.z());
    return text;
}

/// Refuses a scene with the array, a mic or a source outside the room, saying which and what to change.
void requireInsideRoom(const Scene& scene) {
    const ShoeboxRoom& room = *scene.room;
    const auto inside = [&](const Eigen::Vector3d& point) {
        return (point.array() > 0.0).all() && (point.array() < room.sizeMetres.array()).all();
    };
    char extent[96];
    std::snprintf(extent, sizeof extent, "the %.2f x %.2f x %.2f m room", room.sizeMetres.x(), room.sizeMetres.y(), room.sizeMetres.z());
    for (std::size_t m = 0; m < scene.geometry.mics.size(); ++m) {
        const Eigen::Vector3d mic = room.arrayPosition + scene.geometry.mics[m];
        if (!inside(mic)) {
            throw std::invalid_argument("mic " + std::to_string(m) + " at " + pointText(mic) + " is outside " + std::string(extent) +
                                        " (size from --room, array centre from --room-array): move the array inside");
        }
    }
    for (std::size_t i = 0; i < scene.events.size(); ++i) {
        const SimulatedEvent& event = scene.events[i];
        const Eigen::Vector3d place = room.arrayPosition + event.distanceMetres * directionVector(event.azimuthDegrees, event.elevationDegrees);
        if (!inside(place)) {
            char where[160];
            std::snprintf(where, sizeof where, "source %zu (azimuth %.1f deg, elevation %.1f deg, %.2f m from the array) is at ", i,
                          event.azimuthDegrees, event.elevationDegrees, event.distanceMetres);
            throw std::invalid_argument(std::string(where) + pointText(place) + ", outside " + std::string(extent) +
                                        " with the array at " + pointText(room.arrayPosition) +
                                        ": use a smaller --distance, a larger --room or another --room-array (or --positions room)");
        }
    }
}

/// Where a click's sound is within its window: the samples holding all but 0.5 % of its energy at
/// either end (the window is mostly silence around one band-limited impulse), as [first, end) offsets.
std::pair<std::int64_t, std::int64_t> audibleSpan(const SourceSignal& signal, double rateHz) {
    const std::vector<double> samples = makeSourceSignal(signal, rateHz);
    double total = 0.0;
    for (double v : samples) total += v * v;
    constexpr double kCutShare = 0.005;
    std::size_t first = 0;
    for (double below = 0.0; first + 1 < samples.size() && below + samples[first] * samples[first] <= kCutShare * total; ++first) {
        below += samples[first] * samples[first];
    }
    std::size_t end = samples.size();
    for (double above = 0.0; end > first + 1 && above + samples[end - 1] * samples[end - 1] <= kCutShare * total; --end) {
        above += samples[end - 1] * samples[end - 1];
    }
    return {static_cast<std::int64_t>(first), static_cast<std::int64_t>(end)};
}

nlohmann::json geometryJson(const ArrayGeometry& geometry) {
    nlohmann::json mics = nlohmann::json::array();
    for (const auto& mic : geometry.mics) mics.push_back({mic.x(), mic.y(), mic.z()});
    return {{"mics", mics}};
}

void writeJson(const std::string& path, const nlohmann::json& document) {
    std::ofstream file(path);
    file << document.dump(2) << "\n";
    if (!file) throw std::runtime_error("cannot write '" + path + "'");
}

int run(int argc, char** argv) {
    std::map<std::string, std::string> options;
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--help" || option == "-h") {
            std::cout << kUsage;
            return 0;
        }
        if (!option.starts_with("--") || i + 1 >= argc) throw std::invalid_argument("expected --option VALUE, got '" + option + "'");
        options[option] = argv[++i];
    }
    auto take = [&](const std::string& name, const std::string& fallback) {
        auto it = options.find(name);
        if (it == options.end()) return fallback;
        std::string value = it->second;
        options.erase(it);
        return value;
    };
    const std::string geometrySpec = take("--geometry", "");
    const std::string outPath = take("--out", "");
    if (geometrySpec.empty() || outPath.empty()) throw std::invalid_argument("--geometry and --out are required");
    const std::string truthPath = take("--truth", "");
    const std::string geometryOutPath = take("--geometry-out", "");
    const std::string signalName = take("--signal", "noise");
    const std::string roomText = take("--room", "");
    const std::string roomArrayText = take("--room-array", "");
    const std::string positionsMode = take("--positions", "around");
    const std::string targetPath = take("--target", "");
    const double targetAzimuth = parseNumber(take("--target-azimuth", "60"), "--target-azimuth");
    const std::string interfererName = take("--interferer", "noise");
    const double interfererAzimuth = parseNumber(take("--interferer-azimuth", "200"), "--interferer-azimuth");
    const double interfererDb = parseNumber(take("--interferer-db", "0"), "--interferer-db");
    const std::string referencePath = take("--reference-out", "");

    Scene scene;
    scene.geometry = loadGeometry(geometrySpec);
    scene.rateHz = parseNumber(take("--rate", "48000"), "--rate");
    const double duration = parseNumber(take("--duration", "10"), "--duration");
    const int eventCount = static_cast<int>(parseNumber(take("--events", "8"), "--events"));
    const double eventDuration = parseNumber(take("--event-duration", "0.05"), "--event-duration");
    const double lowHz = parseNumber(take("--low-hz", "300"), "--low-hz");
    const double highHz = parseNumber(take("--high-hz", "6000"), "--high-hz");
    scene.snrDb = parseNumber(take("--snr-db", "20"), "--snr-db");
    const double distance = parseNumber(take("--distance", "3"), "--distance");
    const double elevationMax = parseNumber(take("--elevation-max", "0"), "--elevation-max");
    const double absorption = parseNumber(take("--absorption", "0.5"), "--absorption");
    const int order = static_cast<int>(parseNumber(take("--order", "2"), "--order"));
    const auto seed = static_cast<std::uint64_t>(parseNumber(take("--seed", "1"), "--seed"));
    if (!options.empty()) throw std::invalid_argument("unknown option '" + options.begin()->first + "' (see --help)");
    if (!(duration > 0.0) || eventCount < 0 || !(scene.rateHz > 0.0) || !(distance > 0.0)) {
        throw std::invalid_argument("--rate, --duration and --distance must be positive, --events not negative");
    }
    if (order < 0 || order > 4 || !(absorption > 0.0 && absorption <= 1.0)) {
        throw std::invalid_argument("--order is 0 .. 4 and --absorption in (0, 1]");
    }
    SourceKind kind = SourceKind::NoiseBurst;
    if (signalName == "chirp") kind = SourceKind::Chirp;
    else if (signalName == "click") kind = SourceKind::Click;
    else if (signalName != "noise") throw std::invalid_argument("--signal is noise, chirp or click, not '" + signalName + "'");
    if (!roomText.empty()) {
        ShoeboxRoom room;
        room.sizeMetres = parseTriple(roomText, "--room");
        if (!(room.sizeMetres.array() > 0.0).all()) throw std::invalid_argument("--room takes a positive size along every axis, not '" + roomText + "'");
        room.arrayPosition = roomArrayText.empty() ? Eigen::Vector3d(room.sizeMetres / 2.0) : parseTriple(roomArrayText, "--room-array");
        room.absorption = absorption;
        room.maxOrder = order;
        scene.room = room;
    }
    scene.lengthSamples = static_cast<std::int64_t>(duration * scene.rateHz);
    scene.noiseSeed = seed;

    if (positionsMode != "around" && positionsMode != "room") throw std::invalid_argument("--positions is around or room, not '" + positionsMode + "'");
    if (positionsMode == "room" && !scene.room) throw std::invalid_argument("--positions room needs --room");
    const auto directions = randomDirections(static_cast<std::size_t>(eventCount), 0.0, elevationMax, seed);
    GaussianNoise placement(seed * 7919 + 13);  // source places in the room: independent of the array's position
    nlohmann::json truthEvents = nlohmann::json::array();
    if (!targetPath.empty()) {
        if (interfererName != "noise" && interfererName != "chirp") {
            throw std::invalid_argument("--interferer is noise or chirp, not '" + interfererName + "'");
        }
        const std::vector<double> target = readMono(targetPath, scene.rateHz);
        scene.lengthSamples = static_cast<std::int64_t>(target.size());
        scene.events = listenEvents(target, targetAzimuth, interfererName == "chirp" ? SourceKind::Chirp : SourceKind::NoiseBurst,
                                    interfererAzimuth, interfererDb, distance, scene.rateHz, seed);
        const double seconds = static_cast<double>(target.size()) / scene.rateHz;
        for (const SimulatedEvent& event : scene.events) {
            truthEvents.push_back({{"t_start", 0.0}, {"t_end", seconds}, {"azimuth_deg", event.azimuthDegrees}, {"elevation_deg", 0.0},
                                   {"distance_m", event.distanceMetres}});
        }
    }
    for (int i = 0; targetPath.empty() && i < eventCount; ++i) {
        SimulatedEvent event;
        event.signal = {kind, eventDuration, lowHz, highHz, seed * 1000 + static_cast<std::uint64_t>(i)};
        const double emission = (i + 0.5) * duration / eventCount;
        nlohmann::json truth;
        if (positionsMode == "room") {
            constexpr double kMarginMetres = 0.5;
            const Eigen::Vector3d size = scene.room->sizeMetres;
            const Eigen::Vector3d place(kMarginMetres + placement.uniform() * (size.x() - 2 * kMarginMetres),
                                        kMarginMetres + placement.uniform() * (size.y() - 2 * kMarginMetres),
                                        std::min(size.z() - kMarginMetres, 1.0 + placement.uniform()));
            const Eigen::Vector3d offset = place - scene.room->arrayPosition;
            event.distanceMetres = offset.norm();
            event.azimuthDegrees = std::fmod(std::atan2(offset.y(), offset.x()) * 180.0 / std::numbers::pi + 360.0, 360.0);
            event.elevationDegrees = std::asin(offset.z() / event.distanceMetres) * 180.0 / std::numbers::pi;
            event.onsetSample = static_cast<std::int64_t>((emission + event.distanceMetres / scene.speedOfSound) * scene.rateHz);
            truth = {{"x_m", place.x()}, {"y_m", place.y()}, {"z_m", place.z()}, {"emitted_s", emission}};
        } else {
            event.azimuthDegrees = directions[static_cast<std::size_t>(i)].azimuthDegrees;
            event.elevationDegrees = directions[static_cast<std::size_t>(i)].elevationDegrees;
            event.distanceMetres = distance;
            event.onsetSample = static_cast<std::int64_t>(emission * scene.rateHz);
        }
        // The truth spans the sound itself (a click: its impulse, not its window) within the recording.
        double start = static_cast<double>(event.onsetSample) / scene.rateHz;
        double end = start + eventDuration;
        if (kind == SourceKind::Click) {
            const auto [first, last] = audibleSpan(event.signal, scene.rateHz);
            start = static_cast<double>(event.onsetSample + first) / scene.rateHz;
            end = static_cast<double>(event.onsetSample + last) / scene.rateHz;
        }
        const double recordingSeconds = static_cast<double>(scene.lengthSamples) / scene.rateHz;
        if (start >= recordingSeconds) {
            std::cerr << "isochron-simulate-array: source " << i << " would be heard from " << start << " s, after the recording ends ("
                      << recordingSeconds << " s): left out (lengthen --duration, or fewer --events)\n";
            continue;
        }
        scene.events.push_back(event);
        truth["t_start"] = start;
        truth["t_end"] = std::min(end, recordingSeconds);
        truth["azimuth_deg"] = event.azimuthDegrees;
        truth["elevation_deg"] = event.elevationDegrees;
        truth["distance_m"] = event.distanceMetres;
        truthEvents.push_back(truth);
    }
    if (scene.room) requireInsideRoom(scene);
    const double scale = writeRecording(outPath, simulateScene(scene), scene.rateHz);
    if (!referencePath.empty()) {
        // The target alone at one mic in the array's centre, noiseless, scaled as the recording.
        Scene reference = scene;
        reference.geometry.mics = {Eigen::Vector3d::Zero()};
        reference.events.resize(1);
        reference.snrDb.reset();
        auto centre = simulateScene(reference);
        for (float& v : centre.front()) v = static_cast<float>(v * scale);
        writeRecording(referencePath, centre, scene.rateHz);
    }
    if (!geometryOutPath.empty()) writeJson(geometryOutPath, geometryJson(scene.geometry));
    if (!truthPath.empty()) {
        nlohmann::json room = nullptr;
        if (scene.room) {
            room = {{"size_m", {scene.room->sizeMetres.x(), scene.room->sizeMetres.y(), scene.room->sizeMetres.z()}},
                    {"array_position_m", {scene.room->arrayPosition.x(), scene.room->arrayPosition.y(), scene.room->arrayPosition.z()}},
                    {"absorption", absorption},
                    {"order", order}};
        }
        writeJson(truthPath, {{"format", "isochron-simulated-array/1"},
                              {"recording", outPath},
                              {"rate", scene.rateHz},
                              {"geometry", geometryJson(scene.geometry)},
                              {"snr_db", *scene.snrDb},
                              {"scale", scale},
                              {"signal", signalName},
                              {"room", room},
                              {"seed", seed},
                              {"events", truthEvents}});
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "isochron-simulate-array: " << e.what() << "\n";
        return 2;
    }
}
