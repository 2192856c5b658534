#include "app/bench/benchmark.h"

#include "engine/schedulers/scheduler.h"

namespace isochron::bench {

std::vector<std::string> BenchContext::schedulers() const {
    if (scheduler) return {*scheduler};
    std::vector<std::string> all;
    for (const auto& s : availableSchedulers()) all.push_back(s.name);
    return all;
}

const std::vector<Benchmark>& allBenchmarks() {
    static const std::vector<Benchmark> benchmarks = [] {
        std::vector<Benchmark> list;
        for (auto group : {graphBenchmarks, loopBenchmarks, memoryBenchmarks, overloadBenchmarks, localizationBenchmarks,
                           auroraBenchmarks, telemetryBenchmarks, listenBenchmarks, operatorFamilyBenchmarks, hotPathBenchmarks, outOfOrderBenchmarks,
                           pluginBenchmarks, filterBenchmarks, soakBenchmarks, archiveBenchmarks}) {
            for (auto& b : group()) list.push_back(std::move(b));
        }
        return list;
    }();
    return benchmarks;
}

}  // namespace isochron::bench
