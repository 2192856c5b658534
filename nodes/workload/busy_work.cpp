#include "nodes/workload/busy_work.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "engine/time/wall_clock.h"

namespace isochron {
namespace {

thread_local std::int64_t busyNanoseconds = 0;

constexpr std::uint64_t kCalibrationIterations = 1'000'000;  // ~1 ms per trial
constexpr int kCalibrationTrials = 9;

double measureIterationsPerMicrosecond() {
    spinIterations(5 * kCalibrationIterations);  // let the core reach its working clock speed first
    std::vector<double> seconds;
    for (int trial = 0; trial < kCalibrationTrials; ++trial) {
        const auto start = std::chrono::steady_clock::now();
        spinIterations(kCalibrationIterations);
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    // The median trial: the typical speed (the fastest one is rarer than the work it stands for;
    // a slow one was preempted).
    std::nth_element(seconds.begin(), seconds.begin() + kCalibrationTrials / 2, seconds.end());
    return static_cast<double>(kCalibrationIterations) / (seconds[kCalibrationTrials / 2] * 1e6);
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
    if (iterations == 0) return;
    const TimeNs start = wallClockNs();
    std::uint64_t state = iterations;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        asm volatile("" : "+r"(state));  // opaque to the optimizer: every step really runs
    }
    busyNanoseconds += wallClockNs() - start;
}

std::int64_t busyNanosecondsOnThisThread() { return busyNanoseconds; }

}  // namespace isochron
