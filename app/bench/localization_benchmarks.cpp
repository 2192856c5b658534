// Capture and localization (issues 5 and 12): DETECTAUDIO throughput by channel count and stage
// (XStream reports 7.5 M samples/s for 4 channels; samples/xstream-detectaudio-localize.isograph.json),
// the live sample (samples/localize-live.isograph.json, the frame-wise pipeline) in real time at 8
// channels x 48 kHz (CPU share of one core, sound-to-line latency from the outputs' latency telemetry),
// and end-to-end accuracy of both pipelines by condition (SNR, reverberation), on recordings the
// project's acoustic simulator writes. The issue 12 evaluation over rooms, sound types and interferers
// is scripts/localization_eval.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <optional>
#include <thread>

#include <unistd.h>

#include "app/bench/detect_audio.h"
#include "app/bench/graph_runner.h"
#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/run_summary.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::bench {
namespace {

void removeNode(GraphSpec& spec, const std::string& id) {
    std::erase_if(spec.nodes, [&](const NodeSpec& node) { return node.id == id; });
    std::erase_if(spec.edges, [&](const EdgeSpec& edge) { return edge.fromNode == id || edge.toNode == id; });
}

void addNullSink(GraphSpec& spec, const std::string& id, const std::string& fromNode, const std::string& fromPort) {
    spec.nodes.push_back(NodeSpec{id, "io.null_sink", {}, std::nullopt, nlohmann::json::object()});
    spec.edges.push_back(EdgeSpec{fromNode, fromPort, id, "in"});
}

/// The graph `sample` (a file of samples/) reading `recording`, unpaced, its array's geometry set;
/// `loop` replays the recording from memory until stopped.
GraphSpec sampleOnRecording(const BenchContext& context, const std::string& sample, const ArrayRecording& recording,
                            const std::string& geometry, bool loop) {
    GraphSpec spec = loadGraphFile(context.samplesDirectory / sample);
    NodeSpec* source = spec.findNode("source");
    source->params["path"] = recording.path.string();
    source->params["preload"] = true;
    source->params["loops"] = loop ? 0 : 1;
    spec.findNode("array")->params["geometry"] = geometry;
    return spec;
}

}  // namespace

std::filesystem::path scratchFile(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("isochron-bench-" + std::to_string(getpid()) + "-" + name);
}

const char* stageName(Stage stage) {
    switch (stage) {
        case Stage::Detect: return "detect";
        case Stage::Sync: return "detect+sync";
        case Stage::Localize: return "detect+sync+srp";
    }
    return "";
}

GraphSpec detectAudioGraph(const BenchContext& context, const ArrayRecording& recording, const std::string& geometry, int channels,
                           Stage stage, bool loop) {
    GraphSpec spec = sampleOnRecording(context, "xstream-detectaudio-localize.isograph.json", recording, geometry, loop);
    if (stage == Stage::Localize) {
        NodeSpec* events = spec.findNode("events");
        events->type = "io.null_sink";
        events->params.clear();
        return spec;
    }
    removeNode(spec, "events");
    removeNode(spec, "array");
    if (stage == Stage::Sync) {
        for (int c = 0; c < channels; ++c) addNullSink(spec, "channel" + std::to_string(c), "cut", "out" + std::to_string(c));
        return spec;
    }
    removeNode(spec, "cut");
    addNullSink(spec, "ranges", "detector", "events");
    return spec;
}

namespace {

/// CPU time of the calling thread, or of the whole process, in seconds.
double cpuSeconds(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double quantile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double azimuthDifference(double a, double b) {
    const double d = std::fmod(std::abs(a - b), 360.0);
    return std::min(d, 360.0 - d);
}

void detectAudio(const BenchContext& context, const Report& report) {
    const std::vector<std::string> schedulers =
        context.scheduler ? std::vector<std::string>{*context.scheduler} : std::vector<std::string>{"fifo", "fifo-slice", "rtc", "df"};
    for (int channels : {4, 8}) {
        ArrayRecordingSpec spec;
        spec.geometry = channels == 4 ? "square4:0.2" : "circular8:0.1";
        spec.seconds = 10;
        const ArrayRecording recording = simulateArrayRecording(spec, scratchFile("detectaudio.wav"));
        for (Stage stage : {Stage::Detect, Stage::Sync, Stage::Localize}) {
            for (const auto& scheduler : schedulers) {
                const TimedRun run =
                    runTimed(detectAudioGraph(context, recording, spec.geometry, channels, stage, true), scheduler, context.seconds);
                report({{"benchmark", "detectaudio"},
                        {"stage", stageName(stage)},
                        {"channels", channels},
                        {"scheduler", scheduler},
                        {"samples_per_s", run.samplesPerSecond()},
                        {"realtime_factor", run.samplesPerSecond() / (channels * 48000.0)},
                        {"seconds", run.seconds}});
            }
        }
        std::filesystem::remove(recording.path);
    }
}

void localizeRealtime(const BenchContext& context, const Report& report) {
    const std::string scheduler = context.scheduler.value_or("df");
    const int channels = 8;
    ArrayRecordingSpec recordingSpec;
    recordingSpec.geometry = "circular8:0.1";
    recordingSpec.seconds = context.seconds + 2;
    const ArrayRecording recording = simulateArrayRecording(recordingSpec, scratchFile("realtime.wav"));

    GraphSpec spec = loadGraphFile(context.samplesDirectory / "localize-live.isograph.json");
    NodeSpec* source = spec.findNode("source");
    source->params["input"] = "file";
    source->params["file"] = recording.path.string();
    source->params["channels"] = channels;
    source->params["pace"] = 1.0;
    spec.findNode("array")->params["geometry"] = recordingSpec.geometry;
    NodeSpec* events = spec.findNode("events");
    events->type = "io.null_sink";
    events->params.clear();

    Engine engine(validateGraph(spec, builtinRegistry()), parseSchedulerText(scheduler));
    std::shared_ptr<SnapshotChannel> telemetry = engine.openTelemetry(30.0);
    std::vector<double> telemetryP50, telemetryP95;
    int eventsOutput = -1;
    for (const NodeContext* node : engine.nodes()) {
        if (node->id == "events") eventsOutput = node->index;
    }
    std::atomic<bool> done{false};
    std::thread reader([&] {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(context.seconds);
        while (!done.load()) {
            while (const TelemetrySnapshot* snapshot = telemetry->next()) {
                for (const OutputTelemetry& output : snapshot->outputs) {
                    if (output.node == eventsOutput && output.items > 0) {
                        telemetryP50.push_back(output.latencyP50Ms);
                        telemetryP95.push_back(output.latencyP95Ms);
                    }
                }
                telemetry->release(snapshot);
            }
            if (std::chrono::steady_clock::now() >= deadline) engine.requestStop();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    const double threadCpu = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    const double processCpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const RunOutcome outcome = engine.run();
    const double engineCpu = cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - threadCpu;
    const double allCpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - processCpu;
    done.store(true);
    reader.join();
    std::filesystem::remove(recording.path);
    if (!outcome.failures.empty()) throw std::runtime_error("localize-realtime failed: " + outcome.failures.front());
    const RunSummary summary = summarizeRun(engine, outcome);
    OutputSummary bearings;
    for (const OutputSummary& output : summary.outputs) {
        if (output.node == "events") bearings = output;
    }
    std::uint64_t warnings = 0;
    for (const NodeSummary& node : summary.nodes) warnings += node.warningCount;
    report({{"benchmark", "localize-realtime"},
            {"scheduler", scheduler},
            {"channels", channels},
            {"rate_hz", 48000},
            {"seconds", outcome.wallSeconds},
            {"samples_per_s", channels * 48000.0},
            {"engine_cpu_share", engineCpu / outcome.wallSeconds},
            {"process_cpu_share", allCpu / outcome.wallSeconds},
            {"bearings", bearings.items},
            {"latency_p50_ms", bearings.latencyP50Ms},
            {"latency_p95_ms", bearings.latencyP95Ms},
            {"latency_p99_ms", bearings.latencyP99Ms},
            {"latency_max_ms", bearings.latencyMaxMs},
            {"telemetry_p50_ms_median", quantile(telemetryP50, 0.5)},
            {"telemetry_p95_ms_max", quantile(telemetryP95, 1.0)},
            {"warnings", warnings}});
}

void localizeAccuracy(const BenchContext& context, const Report& report) {
    struct Condition {
        const char* name;
        bool room;
        double absorption;
    };
    const std::vector<Condition> conditions = {{"free field", false, 0}, {"room, absorption 0.5", true, 0.5}, {"room, absorption 0.2", true, 0.2}};
    for (const Condition& condition : conditions) {
        for (double snr : {20.0, 10.0, 0.0, -5.0}) {
            ArrayRecordingSpec spec;
            spec.seconds = 20;
            spec.spacingSeconds = 1;
            spec.snrDb = snr;
            spec.room = condition.room;
            spec.absorption = condition.absorption;
            spec.seed = 50 + static_cast<std::uint64_t>(snr + 10);
            const ArrayRecording recording = simulateArrayRecording(spec, scratchFile("accuracy.wav"));
            // The XStream reproduction at two detection thresholds, and the frame-wise pipeline as it comes.
            struct Pipeline {
                const char* name;
                std::optional<double> q;
            };
            for (const Pipeline& pipeline : {Pipeline{"detectaudio", 6.0}, Pipeline{"detectaudio", 4.0}, Pipeline{"frame-wise", std::nullopt}}) {
                GraphSpec graph = pipeline.q ? detectAudioGraph(context, recording, spec.geometry, 4, Stage::Localize, false)
                                             : sampleOnRecording(context, "localize-file.isograph.json", recording, spec.geometry, false);
                if (pipeline.q) graph.findNode("detector")->params["q"] = *pipeline.q;
                const auto eventsPath = scratchFile("accuracy.jsonl");
                NodeSpec* events = graph.findNode("events");
                events->type = "io.jsonl_event_sink";
                events->params = {{"path", eventsPath.string()}, {"fields", "t_start,t_end,azimuth_deg"}};
                const TimedRun run = runTimed(graph, context.scheduler.value_or("df"), 600.0);
                std::vector<nlohmann::json> detections;
                std::ifstream in(eventsPath);
                for (std::string line; std::getline(in, line);) detections.push_back(nlohmann::json::parse(line));
                std::filesystem::remove(eventsPath);
                // A source is found by the first unused detection overlapping it (with the pre/post-roll).
                std::vector<bool> used(detections.size(), false);
                std::vector<double> errors;
                for (const TrueSource& source : recording.sources) {
                    for (std::size_t d = 0; d < detections.size(); ++d) {
                        const double start = detections[d]["t_start"];
                        const double end = detections[d]["t_end"];
                        if (used[d] || end < source.startSeconds || start > source.endSeconds + 0.02) continue;
                        used[d] = true;
                        errors.push_back(azimuthDifference(detections[d]["azimuth_deg"], source.azimuthDegrees));
                        break;
                    }
                }
                nlohmann::ordered_json record = {{"benchmark", "localize-accuracy"},
                                                 {"pipeline", pipeline.name},
                                                 {"scheduler", context.scheduler.value_or("df")},
                                                 {"condition", condition.name},
                                                 {"snr_db", snr},
                                                 {"sources", recording.sources.size()},
                                                 {"detected", errors.size()},
                                                 {"false_alarms", std::count(used.begin(), used.end(), false)},
                                                 {"median_error_deg", quantile(errors, 0.5)},
                                                 {"p90_error_deg", quantile(errors, 0.9)},
                                                 {"samples_per_s", run.samplesPerSecond()}};
                if (pipeline.q) record["q"] = *pipeline.q;
                report(record);
            }
            std::filesystem::remove(recording.path);
        }
    }
}

}  // namespace

std::vector<Benchmark> localizationBenchmarks() {
    return {
        {"detectaudio", "DETECTAUDIO (32-sample FFT score, CFAR, sync; + SRP-PHAT) on 4 and 8 channels, unpaced: samples/s",
         detectAudio},
        {"localize-realtime", "the live localization sample (frame-wise) at 8 channels x 48 kHz in real time: CPU share, latency",
         localizeRealtime},
        {"localize-accuracy", "DETECTAUDIO and the frame-wise pipeline on simulated recordings by SNR and reverberation",
         localizeAccuracy},
    };
}

}  // namespace isochron::bench
