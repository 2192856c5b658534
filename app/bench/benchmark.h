// isochron-bench's benchmarks: each one measures something and reports points (one JSON object
// each, with at least "benchmark", "scheduler" and "samples_per_s").
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace isochron::bench {

/// Settings shared by every benchmark. [value type]
struct BenchContext {
    std::filesystem::path input;             ///< the audio file replayed from memory
    std::filesystem::path samplesDirectory;  ///< the repository's samples/ folder
    std::optional<std::string> scheduler;    ///< only this scheduler (default: every one)
    double seconds = 2.0;                    ///< measured time per point
    /// Schedulers to cover: the chosen one, or every available scheduler.
    std::vector<std::string> schedulers() const;
};

/// Receives one measured point.
using Report = std::function<void(const nlohmann::ordered_json& point)>;

/// A named benchmark. [value type]
struct Benchmark {
    std::string name;
    std::string summary;
    std::function<void(const BenchContext&, const Report&)> run;
    bool readsInput = true;  ///< replays BenchContext::input (the aurora-* workloads do not)
};

/// Every benchmark, in --list order.
const std::vector<Benchmark>& allBenchmarks();

// The groups allBenchmarks() is assembled from (one file each).
std::vector<Benchmark> graphBenchmarks();    ///< passchain, statfilter, silencefilter (+ per-sample variants), enginebench
std::vector<Benchmark> overloadBenchmarks(); ///< overload
std::vector<Benchmark> memoryBenchmarks();   ///< memory (copy-always vs RefCount-Lazy)
std::vector<Benchmark> loopBenchmarks();     ///< statfilter-loop (the hand-written ceiling)
std::vector<Benchmark> localizationBenchmarks();  ///< detectaudio, localize-realtime, localize-accuracy (issue 5)
std::vector<Benchmark> auroraBenchmarks();   ///< aurora-* (the Aurora scheduling paper's experiments)
std::vector<Benchmark> telemetryBenchmarks();  ///< telemetry-overhead
std::vector<Benchmark> outOfOrderBenchmarks();  ///< oop-skew, oop-throughput (the out-of-order paper)
std::vector<Benchmark> listenBenchmarks();   ///< stft, beamformer, listen-snr (issue 18)
std::vector<Benchmark> operatorFamilyBenchmarks();  ///< operator-families: channels/, math/, level/ (issue 18)
std::vector<Benchmark> hotPathBenchmarks();    ///< hot-path (issue 16's figures side by side)
std::vector<Benchmark> pluginBenchmarks();     ///< plugin-hosting (issue 17)
std::vector<Benchmark> filterBenchmarks();     ///< fir, biquad, resample (issue 18)
std::vector<Benchmark> soakBenchmarks();       ///< soak (issue 16: 10x capacity for minutes, bounded memory)
std::vector<Benchmark> archiveBenchmarks();    ///< archive-write (issue 13)

}  // namespace isochron::bench
