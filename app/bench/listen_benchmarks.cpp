// Issue 18, spectral and spatial operators: STFT/ISTFT throughput beside FFTW's transforms alone,
// beamformer throughput, and the "listen to the source" sample's SNR gain over one microphone on
// simulated two-source scenes (samples/listen-to-the-source.isograph.json, run as it is).
#include <chrono>
#include <cmath>
#include <complex>
#include <filesystem>

#include <fftw3.h>
#include <sndfile.h>
#include <unistd.h>

#include "app/bench/array_recording.h"
#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"
#include "app/bench/input_audio.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "nodes/register_builtin_nodes.h"
#include "nodes/spectral/window_functions.h"
#include "tests/support/acoustic_simulator.h"

namespace isochron::bench {
namespace {

std::filesystem::path scratchFile(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("isochron-bench-" + std::to_string(getpid()) + "-" + name);
}

double threadCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

/// FFTW alone on the same work as an STFT round trip: per hop, one windowed frame forward and its
/// spectrum back (r2c + c2r, planned as the operators plan), over `signal` replayed for `seconds`.
/// Returns signal samples per CPU second.
double fftwAloneSamplesPerSecond(const std::vector<float>& signal, int size, int hop, unsigned flags, double seconds) {
    float* time = fftwf_alloc_real(static_cast<std::size_t>(size));
    fftwf_complex* bins = fftwf_alloc_complex(static_cast<std::size_t>(size / 2 + 1));
    float* back = fftwf_alloc_real(static_cast<std::size_t>(size));
    const fftwf_plan forward = fftwf_plan_dft_r2c_1d(size, time, bins, flags);
    const fftwf_plan inverse = fftwf_plan_dft_c2r_1d(size, bins, back, flags);
    std::vector<float> window(static_cast<std::size_t>(size));
    fillWindow(WindowShape::Hann, window);
    std::uint64_t samples = 0;
    float sink = 0.0f;
    const double start = threadCpuSeconds();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        for (std::size_t at = 0; at + static_cast<std::size_t>(size) <= signal.size(); at += static_cast<std::size_t>(hop)) {
            for (int n = 0; n < size; ++n) time[n] = signal[at + static_cast<std::size_t>(n)] * window[static_cast<std::size_t>(n)];
            fftwf_execute(forward);
            fftwf_execute(inverse);
            sink += back[0];
            samples += static_cast<std::uint64_t>(hop);
        }
    }
    const double cpu = threadCpuSeconds() - start;
    fftwf_destroy_plan(forward);
    fftwf_destroy_plan(inverse);
    fftwf_free(time);
    fftwf_free(bins);
    fftwf_free(back);
    return sink == 12345.0f ? 0.0 : static_cast<double>(samples) / cpu;  // `sink` keeps the transforms from being optimized out
}

void stftBenchmark(const BenchContext& context, const Report& report) {
    const std::vector<float> signal = loadFirstChannel(context.input);
    for (int size : {256, 1024, 4096}) {
        const int hop = size / 4;
        GraphSpec graph = benchGraph("stft-roundtrip", context, 4096);
        for (const char* id : {"stft", "istft"}) {
            graph.findNode(id)->params["size"] = size;
            graph.findNode(id)->params["hop"] = hop;
        }
        const TimedRun run = runTimed(graph, "df", context.seconds);
        const double alone = fftwAloneSamplesPerSecond(signal, size, hop, FFTW_ESTIMATE, context.seconds);
        report({{"benchmark", "stft"},
                {"scheduler", "df"},
                {"size", size},
                {"hop", hop},
                {"samples_per_s", run.samplesPerCpuSecond()},
                {"fftw_alone_samples_per_s", alone},
                {"fftw_over_graph", alone / run.samplesPerCpuSecond()}});
    }
}

void beamformerBenchmark(const BenchContext& context, const Report& report) {
    for (const char* geometry : {"square4:0.2", "circular8:0.1"}) {
        ArrayRecordingSpec spec;
        spec.geometry = geometry;
        spec.seconds = 10;
        const ArrayRecording recording = simulateArrayRecording(spec, scratchFile("beamformer.wav"));
        const int mics = loadGeometry(geometry).micCount();
        for (const char* type : {"spatial.delay_and_sum_beamformer", "spatial.mvdr_beamformer"}) {
            GraphSpec graph;
            graph.nodes.push_back(NodeSpec{"source", "io.audio_file_source",
                                           {{"path", recording.path.string()}, {"preload", true}, {"loops", 0}, {"block", 4096}, {"channels", 0}},
                                           std::nullopt, nlohmann::json::object()});
            graph.nodes.push_back(NodeSpec{"beam", type, {{"geometry", geometry}, {"size", 1024}, {"hop", 256}}, std::nullopt, nlohmann::json::object()});
            graph.nodes.push_back(NodeSpec{"sink", "io.null_sink", {}, std::nullopt, nlohmann::json::object()});
            graph.edges.push_back(EdgeSpec{"source", "out*", "beam", "in*"});
            graph.edges.push_back(EdgeSpec{"beam", "out", "sink", "in"});
            const TimedRun run = runTimed(graph, "df", context.seconds);
            report({{"benchmark", "beamformer"},
                    {"scheduler", "df"},
                    {"beamformer", type},
                    {"mics", mics},
                    {"samples_per_s", run.samplesPerCpuSecond()},
                    {"frames_per_s", run.samplesPerCpuSecond() / mics},
                    {"realtime_factor_48k", run.samplesPerCpuSecond() / mics / 48000.0}});
        }
        std::filesystem::remove(recording.path);
    }
}

std::vector<float> readMono(const std::filesystem::path& path) {
    SF_INFO info{};
    SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
    if (!file) throw std::runtime_error("cannot read " + path.string());
    std::vector<float> samples(static_cast<std::size_t>(info.frames * info.channels));
    sf_readf_float(file, samples.data(), info.frames);
    sf_close(file);
    std::vector<float> first;
    for (std::size_t i = 0; i < samples.size(); i += static_cast<std::size_t>(info.channels)) first.push_back(samples[i]);
    return first;
}

void writeChannels(const std::filesystem::path& path, const std::vector<std::vector<float>>& channels, double rate) {
    SF_INFO info{};
    info.samplerate = static_cast<int>(rate);
    info.channels = static_cast<int>(channels.size());
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
    std::vector<float> frame(channels.size());
    for (std::size_t i = 0; i < channels.front().size(); ++i) {
        for (std::size_t m = 0; m < channels.size(); ++m) frame[m] = channels[m][i];
        sf_writef_float(file, frame.data(), 1);
    }
    sf_close(file);
}

/// 10 log10(energy of `reference` / energy of `signal - reference`).
double signalToErrorDb(const std::vector<float>& signal, const std::vector<float>& reference) {
    double wanted = 0.0, error = 0.0;
    for (std::size_t n = 0; n < std::min(signal.size(), reference.size()); ++n) {
        wanted += static_cast<double>(reference[n]) * reference[n];
        error += std::pow(static_cast<double>(signal[n]) - reference[n], 2.0);
    }
    return 10.0 * std::log10(wanted / error);
}

/// The listen sample on simulated scenes: a voice at 60 degrees, an interferer at 200 degrees, a
/// 4-mic square (0.2 m), free field or a room. Input SNR: mic 0 against the voice alone at mic 0;
/// output SNR: the beam against the voice alone at the array's centre (every distortion counts as noise).
void listenBenchmark(const BenchContext& context, const Report& report) {
    std::vector<double> voice;
    for (float v : readMono(context.samplesDirectory / "data" / "counting-speech-16k.wav")) voice.push_back(v);
    const ArrayGeometry geometry = presetGeometry("square4:0.2");
    struct Condition {
        const char* interferer;
        double interfererDb;
        bool room;
    };
    for (const Condition& condition : {Condition{"noise", 0.0, false}, Condition{"chirp", 0.0, false}, Condition{"noise", -6.0, false},
                                       Condition{"noise", 0.0, true}}) {
        test::Scene scene;
        scene.geometry = geometry;
        scene.rateHz = 16000.0;
        scene.lengthSamples = static_cast<std::int64_t>(voice.size());
        scene.snrDb = 40.0;
        if (condition.room) scene.room = test::ShoeboxRoom{{6.0, 5.0, 3.0}, {3.0, 2.5, 1.5}, 0.6, 2};
        test::SimulatedEvent target;
        target.azimuthDegrees = 60.0;
        target.distanceMetres = condition.room ? 1.5 : 3.0;
        target.signal.kind = test::SourceKind::Recording;
        target.signal.recording = voice;
        target.signal.lowHz = 0.0;
        target.signal.highHz = 8000.0;
        test::SimulatedEvent interferer;
        interferer.azimuthDegrees = 200.0;
        interferer.distanceMetres = target.distanceMetres;
        interferer.amplitude = std::pow(10.0, condition.interfererDb / 20.0);
        interferer.signal = {std::string(condition.interferer) == "chirp" ? test::SourceKind::Chirp : test::SourceKind::NoiseBurst,
                             static_cast<double>(voice.size()) / 16000.0, 200.0, 6000.0, 9};
        scene.events = {target, interferer};
        const auto mixture = test::simulateScene(scene);
        test::Scene alone = scene;
        alone.events = {target};
        alone.snrDb.reset();
        alone.geometry.mics.push_back(Eigen::Vector3d::Zero());  // the array's centre, last
        const auto voiceOnly = test::simulateScene(alone);
        const auto input = scratchFile("listen-in.wav");
        const auto output = scratchFile("listen-out.wav");
        writeChannels(input, mixture, scene.rateHz);
        const double inputSnr = signalToErrorDb(mixture[0], voiceOnly[0]);
        for (const char* type : {"spatial.mvdr_beamformer", "spatial.delay_and_sum_beamformer"}) {
            for (bool tracked : {true, false}) {
                GraphSpec graph = loadGraphFile(context.samplesDirectory / "listen-to-the-source.isograph.json");
                graph.findNode("source")->params["path"] = input.string();
                graph.findNode("tracks")->type = "io.null_sink";
                graph.findNode("tracks")->params.clear();
                graph.findNode("enhanced")->params["path"] = output.string();
                graph.findNode("enhanced")->params["samples"] = "float32";  // the simulated voice peaks above 1
                NodeSpec* beam = graph.findNode("beam");
                beam->type = type;
                if (std::string(type) != "spatial.mvdr_beamformer") {
                    beam->params.erase("averaging");
                    beam->params.erase("loading");
                }
                if (!tracked) {  // the true direction, for comparison
                    beam->params["azimuth_deg"] = 60.0;
                    beam->params["track_id"] = 1000000;
                }
                Engine engine(validateGraph(graph, builtinRegistry()), parseSchedulerText("df"));
                const RunOutcome outcome = engine.run();
                if (!outcome.failures.empty()) throw std::runtime_error(outcome.failures.front());
                const double outputSnr = signalToErrorDb(readMono(output), voiceOnly.back());
                report({{"benchmark", "listen-snr"},
                        {"scheduler", "df"},
                        {"interferer", condition.interferer},
                        {"interferer_db", condition.interfererDb},
                        {"room", condition.room ? "6x5x3 m, absorption 0.6" : "free field"},
                        {"beamformer", type},
                        {"steering", tracked ? "tracked" : "true direction"},
                        {"input_snr_db", inputSnr},
                        {"output_snr_db", outputSnr},
                        {"snr_gain_db", outputSnr - inputSnr},
                        {"samples_per_s", 0.0}});
            }
        }
        std::filesystem::remove(input);
        std::filesystem::remove(output);
    }
}

}  // namespace

std::vector<Benchmark> listenBenchmarks() {
    return {
        {"stft", "STFT -> ISTFT round trip under df beside FFTW's r2c + c2r alone on the same frames (issue 18)", stftBenchmark},
        {"beamformer", "delay-and-sum and MVDR beamformer throughput, 4 and 8 mics (issue 18)", beamformerBenchmark, false},
        {"listen-snr", "the listen-to-the-source sample's SNR gain over one mic on simulated two-source scenes (issue 18)",
         listenBenchmark, false},
    };
}

}  // namespace isochron::bench
