// The beamformers against analytic beam patterns (plane waves generated in closed form), the
// distortionless response towards the look direction (simulated broadband sources), MVDR's nulls,
// and steering by direction events, under every scheduler.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "engine/graph/graph_error.h"
#include "nodes/spatial/array_geometry.h"
#include "tests/nodes/spatial/spatial_test_support.h"
#include "tests/support/stream_probes.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 16000.0;

/// A plane wave sin(2 pi f (t - tau_m(v)) + phase) of `amplitude` from (azimuth, elevation), in closed form.
std::vector<std::vector<float>> planeWave(const ArrayGeometry& geometry, double azimuth, double elevation, double hz, double amplitude,
                                          std::size_t length) {
    const auto delays = steeringDelays(geometry, directionVector(azimuth, elevation));
    std::vector<std::vector<float>> channels(delays.size(), std::vector<float>(length));
    for (std::size_t m = 0; m < delays.size(); ++m) {
        for (std::size_t n = 0; n < length; ++n) {
            const double t = static_cast<double>(n) / kRate - delays[m];
            channels[m][n] = static_cast<float>(amplitude * std::sin(2.0 * std::numbers::pi * hz * t + 0.4));
        }
    }
    return channels;
}

/// |(1/M) sum_m e^{i w (tau_m(look) - tau_m(source))}|: delay-and-sum's amplitude response.
double analyticResponse(const ArrayGeometry& geometry, double lookAzimuth, double sourceAzimuth, double hz) {
    const auto look = steeringDelays(geometry, directionVector(lookAzimuth, 0.0));
    const auto source = steeringDelays(geometry, directionVector(sourceAzimuth, 0.0));
    std::complex<double> sum;
    for (std::size_t m = 0; m < look.size(); ++m) sum += std::polar(1.0, 2.0 * std::numbers::pi * hz * (look[m] - source[m]));
    return std::abs(sum) / static_cast<double>(look.size());
}

/// What one beamformer run gave.
struct BeamRun {
    RunOutcome outcome;
    std::vector<float> out;          // the output samples, checked contiguous from the first input index
    std::vector<Item> patterns;
};

/// feed (channels as items of random lengths) [+ steer events] -> `type` -> collectors.
BeamRun runBeamformer(const std::string& type, nlohmann::json params, const std::vector<std::vector<float>>& channels,
                      const std::vector<Item>& steering = {}, const std::string& scheduler = "df", std::uint32_t seed = 1) {
    const Timebase& timebase = Timebase::get(kRate);
    const int mics = static_cast<int>(channels.size());
    nlohmann::json nodes = nlohmann::json::array(
        {{{"id", "feed"}, {"type", "test.feed"}, {"params", {{"name", "beam"}, {"outputs", mics}}}},
         {{"id", "beam"}, {"type", type}, {"params", params}},
         {{"id", "sink"}, {"type", "test.collect"}, {"params", {{"name", "beam"}, {"inputs", 2}}}}});
    nodes.push_back({{"id", "out_probe"}, {"type", "test.probe"}, {"params", {{"name", "beam-out"}, {"keep", false}}}});
    nodes.push_back({{"id", "pattern_probe"}, {"type", "test.probe"}, {"params", {{"name", "beam-pattern"}, {"keep", false}}}});
    nlohmann::json edges = nlohmann::json::array({{{"from", "feed.out*"}, {"to", "beam.in*"}},
                                                  {{"from", "beam.out"}, {"to", "sink.in0"}},
                                                  {{"from", "beam.pattern"}, {"to", "sink.in1"}},
                                                  {{"from", "beam.out"}, {"to", "out_probe.in"}},
                                                  {{"from", "beam.pattern"}, {"to", "pattern_probe.in"}}});
    registerStreamProbes();
    if (!steering.empty()) {
        nodes.push_back({{"id", "steer"}, {"type", "test.feed"}, {"params", {{"name", "steer"}, {"type", "event"}}}});
        edges.push_back({{"from", "steer.out0"}, {"to", "beam.steer"}});
        FeedScript steer;
        for (const Item& event : steering) steer.batches.push_back({{0, event}});
        feedScripts()["steer"] = steer;
    }
    std::mt19937 random(seed);
    FeedScript script;
    script.outputs = mics;
    const std::size_t length = channels.front().size();
    for (std::size_t done = 0; done < length;) {
        const std::size_t take = std::min<std::size_t>(std::uniform_int_distribution<std::size_t>(1, 700)(random), length - done);
        script.batches.emplace_back();
        for (int m = 0; m < mics; ++m) {
            const auto& samples = channels[static_cast<std::size_t>(m)];
            std::vector<float> part(samples.begin() + static_cast<std::ptrdiff_t>(done), samples.begin() + static_cast<std::ptrdiff_t>(done + take));
            script.batches.back().push_back({m, Item::signal(piecewiseSignal(part, static_cast<std::int64_t>(done), timebase, random))});
        }
        done += take;
    }
    feedScripts()["beam"] = script;
    BeamRun run;
    const nlohmann::json graph = {{"format", "isochron-graph/1"}, {"nodes", nodes}, {"edges", edges}};
    try {
        run.outcome = runGraph(graph.dump(), scheduler);
    } catch (...) {
        feedScripts().clear();
        collections().clear();
        throw;
    }
    std::int64_t next = 0;
    for (const Item& item : collections()["beam"].items[0]) {
        REQUIRE(item.range().start == next);
        next = item.range().end();
        for (float s : samplesOf(item)) run.out.push_back(s);
    }
    run.patterns = collections()["beam"].items[1];
    CHECK(probes()["beam-out"].brokenPromises == 0);  // progress promised on the outputs holds
    CHECK(probes()["beam-pattern"].brokenPromises == 0);
    feedScripts().clear();
    collections().clear();
    return run;
}

double rms(const std::vector<float>& samples, std::size_t from, std::size_t to) {
    double sum = 0.0;
    for (std::size_t n = from; n < to; ++n) sum += static_cast<double>(samples[n]) * samples[n];
    return std::sqrt(sum / static_cast<double>(to - from));
}

/// 10 log10 of the reference's energy over the error's, over [from, to).
double signalToErrorDb(const std::vector<float>& got, const std::vector<float>& reference, std::size_t from, std::size_t to) {
    double signal = 0.0, error = 0.0;
    for (std::size_t n = from; n < to; ++n) {
        signal += static_cast<double>(reference[n]) * reference[n];
        error += std::pow(static_cast<double>(got[n]) - reference[n], 2.0);
    }
    return 10.0 * std::log10(signal / error);
}

/// A simulated free-field scene whose last channel is an extra mic at the array's origin: the
/// reference every beam should reproduce for a source it looks at.
std::vector<std::vector<float>> sceneWithOrigin(const ArrayGeometry& geometry, const std::vector<SimulatedEvent>& events, std::int64_t length,
                                                std::optional<double> snrDb) {
    Scene scene;
    scene.geometry = geometry;
    scene.geometry.mics.push_back(Eigen::Vector3d::Zero());
    scene.rateHz = kRate;
    scene.lengthSamples = length;
    scene.events = events;
    scene.snrDb = snrDb;
    return simulateScene(scene);
}

SimulatedEvent noiseSource(double azimuth, double amplitude, std::uint64_t seed, double seconds) {
    SimulatedEvent event;
    event.azimuthDegrees = azimuth;
    event.distanceMetres = 50.0;
    event.onsetSample = 0;
    event.amplitude = amplitude;
    event.signal.kind = SourceKind::NoiseBurst;
    event.signal.durationSeconds = seconds;
    event.signal.lowHz = 200.0;
    event.signal.highHz = 6000.0;
    event.signal.seed = seed;
    return event;
}

Item steeringEvent(std::int64_t start, double azimuth, std::optional<double> trackId = std::nullopt) {
    EventRecord* record = EventRecord::create("bearing");
    record->set("azimuth_deg", azimuth);
    record->set("elevation_deg", 0.0);
    if (trackId) record->set("track_id", *trackId);
    return Item::event(record, SampleRange{&Timebase::get(kRate), start, 256}, 1.0);
}

}  // namespace

TEST_CASE("Delay-and-sum follows the analytic beam pattern of its geometry", "[spatial][beamformer]") {
    const ArrayGeometry geometry = presetGeometry("circular6:0.05");
    const double hz = 2000.0;  // bin 128 of 1024 at 16 kHz
    const nlohmann::json params = {{"geometry", "circular6:0.05"}, {"size", 1024}, {"hop", 256}, {"azimuth_deg", 30.0},
                                   {"pattern_hz", hz}, {"pattern_step_deg", 15.0}};
    for (double source : {30.0, 60.0, 90.0, 150.0, 210.0, 300.0}) {
        INFO("source at " << source << " deg, beam at 30 deg");
        const BeamRun run = runBeamformer("spatial.delay_and_sum_beamformer", params, planeWave(geometry, source, 0.0, hz, 0.5, 8000));
        REQUIRE(run.outcome.failures.empty());
        REQUIRE(run.out.size() == 8000);
        const double gain = rms(run.out, 2000, 6000) / (0.5 / std::sqrt(2.0));
        CHECK(gain == Approx(analyticResponse(geometry, 30.0, source, hz)).margin(0.01));
    }
    const BeamRun run = runBeamformer("spatial.delay_and_sum_beamformer", params, planeWave(geometry, 0.0, 0.0, hz, 0.5, 4000));
    REQUIRE(run.patterns.size() == 1);  // the look direction never changed
    const std::vector<float> pattern = samplesOf(run.patterns[0]);
    REQUIRE(pattern.size() == 24);
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const double response = analyticResponse(geometry, 30.0, 15.0 * static_cast<double>(i), hz);
        CHECK(std::pow(10.0, pattern[i] / 10.0) == Approx(response * response).margin(1e-6));
    }
}

TEST_CASE("Both beamformers pass a broadband source in the look direction as heard at the origin", "[spatial][beamformer]") {
    const ArrayGeometry geometry = presetGeometry("square4:0.2");
    const auto scene = sceneWithOrigin(geometry, {noiseSource(135.0, 0.5, 3, 1.5)}, 24000, 60.0);
    const std::vector<std::vector<float>> mics(scene.begin(), scene.end() - 1);
    for (const char* type : {"spatial.delay_and_sum_beamformer", "spatial.mvdr_beamformer"}) {
        INFO(type);
        const BeamRun run = runBeamformer(type, {{"geometry", "square4:0.2"}, {"size", 1024}, {"hop", 256}, {"azimuth_deg", 135.0}}, mics);
        REQUIRE(run.outcome.failures.empty());
        REQUIRE(run.out.size() == scene.back().size());
        CHECK(signalToErrorDb(run.out, scene.back(), 1000, 23000) > 25.0);
    }
}

TEST_CASE("MVDR nulls a loud interferer that delay-and-sum only attenuates", "[spatial][beamformer]") {
    const ArrayGeometry geometry = presetGeometry("circular6:0.1");
    const auto target = sceneWithOrigin(geometry, {noiseSource(0.0, 0.3, 5, 2.5)}, 40000, std::nullopt);
    const auto interferer = sceneWithOrigin(geometry, {noiseSource(120.0, 1.0, 6, 2.5)}, 40000, std::nullopt);
    std::vector<std::vector<float>> mixture(geometry.micCount(), std::vector<float>(40000));
    for (int m = 0; m < geometry.micCount(); ++m) {
        for (std::size_t n = 0; n < 40000; ++n) mixture[m][n] = target[m][n] + interferer[m][n];
    }
    const nlohmann::json params = {{"geometry", "circular6:0.1"}, {"size", 512}, {"hop", 128}, {"azimuth_deg", 0.0},
                                   {"pattern_hz", 1500.0}, {"pattern_step_deg", 10.0}, {"pattern_interval", 1.0}};
    const BeamRun delayAndSum = runBeamformer("spatial.delay_and_sum_beamformer", params, mixture);
    const BeamRun mvdr = runBeamformer("spatial.mvdr_beamformer", params, mixture);
    REQUIRE(mvdr.outcome.failures.empty());
    const double inputSir = signalToErrorDb(mixture[0], target[0], 8000, 39000);
    const double delayAndSumSir = signalToErrorDb(delayAndSum.out, target.back(), 8000, 39000);
    const double mvdrSir = signalToErrorDb(mvdr.out, target.back(), 8000, 39000);
    INFO("SIR: one mic " << inputSir << " dB, delay-and-sum " << delayAndSumSir << " dB, MVDR " << mvdrSir << " dB");
    CHECK(delayAndSumSir > inputSir);
    CHECK(mvdrSir > delayAndSumSir + 10.0);
    // The adaptive pattern (sent every second) has a deep null towards the interferer and 0 dB at the look direction.
    REQUIRE(mvdr.patterns.size() >= 2);
    const std::vector<float> pattern = samplesOf(mvdr.patterns.back());
    CHECK(pattern[0] == Approx(0.0).margin(1e-3));
    CHECK(pattern[12] < -25.0);
}

TEST_CASE("Steering events move the beam from their start on, the same under every scheduler", "[spatial][beamformer]") {
    const ArrayGeometry geometry = presetGeometry("circular6:0.05");
    const double hz = 3000.0;
    const auto wave = planeWave(geometry, 90.0, 0.0, hz, 0.5, 16000);
    const nlohmann::json params = {{"geometry", "circular6:0.05"}, {"size", 512}, {"hop", 128}, {"azimuth_deg", 270.0}, {"track_id", 1}};
    // Track 1 turns to the source at sample 8000; track 2's event (a wrong direction) is ignored.
    const std::vector<Item> events = {steeringEvent(3000, 200.0, 2.0), steeringEvent(8000, 90.0, 1.0), steeringEvent(12000, 10.0, 2.0)};
    std::vector<float> reference;
    for (const std::string& scheduler : schedulerMatrix()) {
        INFO("scheduler " << scheduler);
        const BeamRun run = runBeamformer("spatial.delay_and_sum_beamformer", params, wave, events, scheduler, 17);
        REQUIRE(run.outcome.failures.empty());
        REQUIRE(run.out.size() == 16000);
        CHECK(rms(run.out, 1000, 7000) / (0.5 / std::sqrt(2.0)) == Approx(analyticResponse(geometry, 270.0, 90.0, hz)).margin(0.01));
        CHECK(rms(run.out, 9000, 15000) / (0.5 / std::sqrt(2.0)) == Approx(1.0).margin(0.01));
        CHECK(run.patterns.size() == 2);
        if (reference.empty()) reference = run.out;
        else CHECK(run.out == reference);
    }
}

TEST_CASE("Beamformers refuse a geometry that does not match their inputs, naming both", "[spatial][beamformer]") {
    const auto channels = std::vector<std::vector<float>>(3, std::vector<float>(100, 0.0f));
    CHECK_THROWS_WITH(runBeamformer("spatial.mvdr_beamformer", {{"geometry", "square4:0.2"}}, channels),
                      Catch::Contains("node 'beam'") && Catch::Contains("4 mics") && Catch::Contains("has 3 inputs"));
    CHECK_THROWS_WITH(runBeamformer("spatial.delay_and_sum_beamformer", {{"geometry", "nowhere.json"}}, channels),
                      Catch::Contains("node 'beam'") && Catch::Contains("nowhere.json"));
}
