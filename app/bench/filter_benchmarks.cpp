// Issue 18, filters and resample families: each kernel alone and each operator in a graph (a
// recording replayed from memory -> operator -> null sink), beside the library a user would
// otherwise call, measured in the same run: scipy.signal (lfilter, oaconvolve, sosfilt; through
// scripts/bench_scipy_filters.py) and libsoxr called directly. Rates are samples per CPU second of
// one thread.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

#include <soxr.h>

#include "app/bench/benchmark.h"
#include "app/bench/graph_runner.h"
#include "nodes/filters/biquad_cascade.h"
#include "nodes/filters/fir_convolver.h"
#include "nodes/filters/fir_design.h"
#include "nodes/filters/iir_design.h"
#include "nodes/resample/soxr_stream.h"

namespace isochron::bench {
namespace {

constexpr std::size_t kBlock = 4096;  // samples per call, as a source's items would bring them

std::vector<float> noise(std::size_t length) {
    std::mt19937 random(1);
    std::normal_distribution<float> value(0.0f, 0.3f);
    std::vector<float> x(length);
    for (float& v : x) v = value(random);
    return x;
}

/// Samples per CPU second of `step` (which processes `samplesPerStep` samples), run for `seconds`.
template <class Step> double kernelRate(Step&& step, std::size_t samplesPerStep, double seconds) {
    step();  // warm up (first-use planning, page faults)
    std::uint64_t samples = 0;
    const double start = threadCpuSeconds();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        step();
        samples += samplesPerStep;
    }
    return static_cast<double>(samples) / (threadCpuSeconds() - start);
}

/// scripts/bench_scipy_filters.py's answer for `operation`, run by $ISOCHRON_PYTHON (default Debian's
/// /usr/bin/python3 with python3-scipy); 0 when that Python or scipy is missing.
double scipyRate(const std::string& operation, std::size_t size, double seconds) {
    const char* python = std::getenv("ISOCHRON_PYTHON");
    const std::string command = std::string(python ? python : "/usr/bin/python3") + " " ISOCHRON_SOURCE_DIR "/scripts/bench_scipy_filters.py " + operation + " " + std::to_string(size) + " " +
                                std::to_string(seconds) + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    double rate = 0.0;
    if (!pipe || std::fscanf(pipe.get(), "%lf", &rate) != 1) return 0.0;
    return rate;
}

/// A replayed recording -> `type` with `params` -> null sink, timed.
TimedRun operatorRun(const BenchContext& context, const std::string& type, const nlohmann::json& params) {
    GraphSpec graph;
    graph.nodes.push_back(NodeSpec{"source", "io.audio_file_source",
                                   {{"path", context.input.string()}, {"preload", true}, {"loops", 0}, {"block", static_cast<std::int64_t>(kBlock)}},
                                   std::nullopt, nlohmann::json::object()});
    std::map<std::string, nlohmann::json> nodeParams;
    for (const auto& [name, value] : params.items()) nodeParams[name] = value;
    graph.nodes.push_back(NodeSpec{"op", type, nodeParams, std::nullopt, nlohmann::json::object()});
    graph.nodes.push_back(NodeSpec{"sink", "io.null_sink", {}, std::nullopt, nlohmann::json::object()});
    graph.edges.push_back(EdgeSpec{"source", "out0", "op", "in"});
    graph.edges.push_back(EdgeSpec{"op", "out", "sink", "in"});
    return runTimed(graph, "df", context.seconds);
}

void firBenchmark(const BenchContext& context, const Report& report) {
    const std::vector<float> x = noise(1 << 16);
    std::vector<float> y(x.size());
    for (int taps : {16, 64, 256, 1024, 4096}) {
        filters::FirSpecification spec;
        spec.taps = taps;
        spec.lowHz = 4000.0;
        const std::vector<double> h = designFir(spec);
        const double lfilter = scipyRate("lfilter", static_cast<std::size_t>(taps), context.seconds);
        const double oaconvolve = scipyRate("oaconvolve", static_cast<std::size_t>(taps), context.seconds);
        for (auto method : {filters::ConvolutionMethod::Direct, filters::ConvolutionMethod::Fft}) {
            filters::FirConvolver convolver;
            convolver.setTaps(h, method);
            const double kernel = kernelRate(
                [&] {
                    for (std::size_t at = 0; at < x.size(); at += kBlock) convolver.process(x.data() + at, y.data() + at, kBlock);
                },
                x.size(), context.seconds);
            const char* name = method == filters::ConvolutionMethod::Direct ? "direct" : "fft";
            const TimedRun run = operatorRun(context, "filters.fir", {{"taps", taps}, {"cutoff_hz", 4000.0}, {"method", name}});
            report({{"benchmark", "fir"},
                    {"scheduler", "df"},
                    {"taps", taps},
                    {"method", name},
                    {"kernel_samples_per_s", kernel},
                    {"samples_per_s", run.samplesPerCpuSecond()},
                    {"scipy_lfilter_samples_per_s", lfilter},
                    {"scipy_oaconvolve_samples_per_s", oaconvolve},
                    {"graph_over_lfilter", lfilter > 0 ? run.samplesPerCpuSecond() / lfilter : 0.0}});
        }
    }
}

/// A replayed recording fanned out to `channels` `filters.butterworth` nodes of `order` (channels
/// are separate streams here: one filter node each, as a multichannel graph has them) -> null sinks.
TimedRun channelBankRun(const BenchContext& context, int channels, int order) {
    GraphSpec graph;
    graph.nodes.push_back(NodeSpec{"source", "io.audio_file_source",
                                   {{"path", context.input.string()}, {"preload", true}, {"loops", 0}, {"block", static_cast<std::int64_t>(kBlock)}},
                                   std::nullopt, nlohmann::json::object()});
    for (int c = 0; c < channels; ++c) {
        const std::string filter = "low" + std::to_string(c), sink = "sink" + std::to_string(c);
        graph.nodes.push_back(NodeSpec{filter, "filters.butterworth", {{"order", order}, {"cutoff_hz", 4000.0}}, std::nullopt, nlohmann::json::object()});
        graph.nodes.push_back(NodeSpec{sink, "io.null_sink", {}, std::nullopt, nlohmann::json::object()});
        graph.edges.push_back(EdgeSpec{"source", "out0", filter, "in"});
        graph.edges.push_back(EdgeSpec{filter, "out", sink, "in"});
    }
    return runTimed(graph, "df", context.seconds);
}

void biquadBenchmark(const BenchContext& context, const Report& report) {
    const std::vector<float> x = noise(1 << 16);
    std::vector<float> y(x.size());
    for (int sections : {1, 2, 4, 8}) {
        filters::IirSpecification spec;
        spec.order = 2 * sections;
        spec.lowHz = 4000.0;
        filters::BiquadCascade cascade;
        cascade.setSections(designIir(spec));
        const double kernel = kernelRate(
            [&] {
                for (std::size_t at = 0; at < x.size(); at += kBlock) cascade.process(x.data() + at, y.data() + at, kBlock);
            },
            x.size(), context.seconds);
        const double sosfilt = scipyRate("sosfilt", static_cast<std::size_t>(sections), context.seconds);
        const TimedRun run = operatorRun(context, "filters.butterworth", {{"order", 2 * sections}, {"cutoff_hz", 4000.0}});
        report({{"benchmark", "biquad"},
                {"scheduler", "df"},
                {"sections", sections},
                {"kernel_samples_per_s", kernel},
                {"samples_per_s", run.samplesPerCpuSecond()},
                {"scipy_sosfilt_samples_per_s", sosfilt},
                {"graph_over_sosfilt", sosfilt > 0 ? run.samplesPerCpuSecond() / sosfilt : 0.0}});
    }
    // Eight channels: scipy filters an 8 x N array in one call; the graph runs one node per channel.
    for (int sections : {2, 4}) {
        const double sosfilt = scipyRate("sosfilt8", static_cast<std::size_t>(sections), context.seconds);
        const TimedRun run = channelBankRun(context, 8, 2 * sections);
        const double rate = run.cpuSeconds > 0 ? static_cast<double>(run.sinkSamples) / run.cpuSeconds : 0.0;  // over all channels
        report({{"benchmark", "biquad"},
                {"scheduler", "df"},
                {"channels", 8},
                {"sections", sections},
                {"samples_per_s", rate},
                {"scipy_sosfilt_samples_per_s", sosfilt},
                {"graph_over_sosfilt", sosfilt > 0 ? rate / sosfilt : 0.0}});
    }
}

/// libsoxr alone on the same work: `x` in kBlock pieces through soxr_process, output into one buffer.
double soxrAloneRate(const std::vector<float>& x, double inputRate, double outputRate, double seconds) {
    const soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    const soxr_quality_spec_t quality = soxr_quality_spec(SOXR_HQ, 0);
    const soxr_runtime_spec_t runtime = soxr_runtime_spec(1);
    soxr_t resampler = soxr_create(inputRate, outputRate, 1, nullptr, &io, &quality, &runtime);
    std::vector<float> out(static_cast<std::size_t>(static_cast<double>(kBlock) * outputRate / inputRate) + 256);
    const double rate = kernelRate(
        [&] {
            for (std::size_t at = 0; at < x.size(); at += kBlock) {
                std::size_t used = 0, produced = 0;
                soxr_process(resampler, x.data() + at, kBlock, &used, out.data(), out.size(), &produced);
            }
        },
        x.size(), seconds);
    soxr_delete(resampler);
    return rate;
}

void resampleBenchmark(const BenchContext& context, const Report& report) {
    const std::vector<float> x = noise(1 << 16);
    const double inputRate = 44100.0;  // the default recording's
    for (double outputRate : {48000.0, 16000.0, 22050.0}) {
        const double alone = soxrAloneRate(x, inputRate, outputRate, context.seconds);
        resample::SoxrStream stream(inputRate, outputRate, resample::ResampleQuality::High);
        std::vector<float> out;
        const double kernel = kernelRate(
            [&] {
                for (std::size_t at = 0; at < x.size(); at += kBlock) stream.process(x.data() + at, kBlock, out);
            },
            x.size(), context.seconds);
        const TimedRun run = operatorRun(context, "resample.to_rate", {{"rate_hz", outputRate}});
        report({{"benchmark", "resample"},
                {"scheduler", "df"},
                {"input_hz", inputRate},
                {"output_hz", outputRate},
                {"kernel_samples_per_s", kernel},
                {"samples_per_s", run.samplesPerCpuSecond()},
                {"soxr_alone_samples_per_s", alone},
                {"graph_over_soxr", run.samplesPerCpuSecond() / alone}});
    }
}

}  // namespace

std::vector<Benchmark> filterBenchmarks() {
    return {
        {"fir", "filters.fir (direct and FFT, 16 to 4096 taps) beside scipy.signal.lfilter and oaconvolve", firBenchmark},
        {"biquad", "filters.butterworth cascades of 1 to 8 biquads, one channel and eight, beside scipy.signal.sosfilt", biquadBenchmark},
        {"resample", "resample.to_rate (libsoxr, high quality) beside libsoxr called directly", resampleBenchmark},
    };
}

}  // namespace isochron::bench
