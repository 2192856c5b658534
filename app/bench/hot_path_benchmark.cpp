// The hot path's figures of issue 16, measured in one process one after the other so that their
// ratios hold on a shared machine, per second of the measuring thread's CPU time: EngineBench's cost per hop under df, STATFILTER under df beside
// its hand-written loop, and 4-channel DETECTAUDIO (detect+sync) under df beside what FFTW's
// 32-sample real FFT alone allows (the same plan the FFT operator uses, over channel 0's windows,
// counted like DETECTAUDIO: every channel's samples, since only channel 0 is transformed).
#include <chrono>
#include <complex>
#include <vector>

#include "app/bench/detect_audio.h"
#include "app/bench/graph_runner.h"
#include "app/bench/input_audio.h"
#include "app/bench/statfilter_loop.h"
#include "engine/signal/sigseg.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron::bench {
namespace {

constexpr int kChannels = 4;
constexpr std::int64_t kFftSize = 32;

/// Channel-0 samples per second of the thread's CPU time that FFTW's r2c transform of kFftSize
/// sustains alone, over the recording's first channel cut into kFftSize-sample windows (no
/// windowing, no other work).
double fftOnlySamplesPerCpuSecond(const std::filesystem::path& recording, double seconds) {
    const std::vector<float> samples = loadFirstChannel(recording);
    const RealForwardPlan& plan = FftPlanCache::instance().realForward(kFftSize, PlanEffort::Estimate);
    // Pool blocks have the alignment plans are made for.
    SigSeg<float> input = SigSeg<float>::allocate(kFftSize, 0, nullptr);
    SigSeg<std::complex<float>> bins = SigSeg<std::complex<float>>::allocate(plan.binCount(), 0, nullptr);
    float* in = input.writable().data();
    std::complex<float>* out = bins.writable().data();
    const std::size_t windows = samples.size() / kFftSize;
    std::uint64_t transformed = 0;
    float checksum = 0;
    const double cpuAtStart = threadCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        for (std::size_t w = 0; w < windows; ++w) {
            std::copy_n(samples.data() + w * kFftSize, kFftSize, in);  // execute may overwrite its input
            plan.execute(in, out);
            checksum += out[1].real();
        }
        transformed += windows * kFftSize;
    }
    if (checksum == 12345.0f) std::fputc(' ', stderr);  // keeps the transforms from being optimized away
    return static_cast<double>(transformed) / (threadCpuSeconds() - cpuAtStart);
}

void hotPath(const BenchContext& context, const Report& report) {
    // Rates per second of the measuring thread's CPU time: on a shared machine wall time also
    // counts the time other processes had the core, CPU time hardly does.
    const std::string scheduler = context.scheduler.value_or("df");

    GraphSpec chain = benchGraph("enginebench", context, 4096);
    const TimedRun engine = runTimed(chain, scheduler, context.seconds);
    const double hops = static_cast<double>(chain.edges.size()) * static_cast<double>(engine.sourceItems + engine.sourceMarkers);
    report({{"benchmark", "hot-path"}, {"measure", "enginebench"}, {"scheduler", scheduler},
            {"ns_per_hop", engine.cpuSeconds * 1e9 / hops}, {"ns_per_hop_wall", engine.seconds * 1e9 / hops},
            {"samples_per_s", engine.samplesPerCpuSecond()}});

    const LoopRun loop = runStatfilterLoop(context);
    const TimedRun statfilter = runTimed(benchGraph("statfilter", context, 4096), scheduler, context.seconds);
    report({{"benchmark", "hot-path"}, {"measure", "statfilter"}, {"scheduler", scheduler},
            {"samples_per_s", statfilter.samplesPerCpuSecond()}, {"loop_samples_per_s", loop.samplesPerCpuSecond},
            {"loop_over_engine", loop.samplesPerCpuSecond / statfilter.samplesPerCpuSecond()},
            {"loop_over_engine_wall", loop.samplesPerSecond / statfilter.samplesPerSecond()}});

    ArrayRecordingSpec spec;
    spec.geometry = "square4:0.2";
    spec.seconds = 10;
    const ArrayRecording recording = simulateArrayRecording(spec, scratchFile("hot-path.wav"));
    const TimedRun detect = runTimed(detectAudioGraph(context, recording, spec.geometry, kChannels, Stage::Sync, true), scheduler,
                                     context.seconds);
    const double fftOnly = fftOnlySamplesPerCpuSecond(recording.path, context.seconds) * kChannels;
    std::filesystem::remove(recording.path);
    report({{"benchmark", "hot-path"}, {"measure", "detectaudio 4 ch detect+sync"}, {"scheduler", scheduler},
            {"samples_per_s", detect.samplesPerCpuSecond()}, {"samples_per_s_wall", detect.samplesPerSecond()},
            {"fft_only_samples_per_s", fftOnly}, {"fft_only_over_engine", fftOnly / detect.samplesPerCpuSecond()}});
}

}  // namespace

std::vector<Benchmark> hotPathBenchmarks() {
    return {{"hot-path",
             "issue 16's hot path in one run: EngineBench ns/hop, STATFILTER vs its loop, DETECTAUDIO 4 ch vs FFTW alone",
             hotPath}};
}

}  // namespace isochron::bench
