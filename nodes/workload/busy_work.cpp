#include "nodes/workload/busy_work.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace isochron {
namespace {

constexpr std::uint64_t kCalibrationIterations = 500'000;  // ~0.5-2 ms per trial
constexpr int kCalibrationTrials = 7;

double measureIterationsPerMicrosecond() {
    spinIterations(kCalibrationIterations);  // warm up the core's clock and caches
    double bestSeconds = std::numeric_limits<double>::infinity();
    for (int trial = 0; trial < kCalibrationTrials; ++trial) {
        const auto start = std::chrono::steady_clock::now();
        spinIterations(kCalibrationIterations);
        const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // The fastest trial is the one least disturbed by preemption and interrupts.
        bestSeconds = std::min(bestSeconds, elapsed);
    }
    return static_cast<double>(kCalibrationIterations) / (bestSeconds * 1e6);
}

}  // namespace

double busyIterationsPerMicrosecond() {
    static const double rate = measureIterationsPerMicrosecond();
    return rate;
}

std::uint64_t busyIterationsFor(double microseconds) {
    if (microseconds <= 0) return 0;
    return static_cast<std::uint64_t>(std::llround(microseconds * busyIterationsPerMicrosecond()));
}

void spinIterations(std::uint64_t iterations) {
    std::uint64_t state = iterations;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        asm volatile("" : "+r"(state));  // opaque to the optimizer: every step really runs
    }
}

}  // namespace isochron
