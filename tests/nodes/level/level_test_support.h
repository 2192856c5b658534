// Test helpers for the level family: test signals and the one-pole attack/release detector written
// out as a plain loop (the reference the operators are checked against).
#pragma once

#include <cmath>
#include <numbers>
#include <vector>

namespace isochron::test {

/// A sine of `amplitude` at `hz`, `count` samples at `rate`.
inline std::vector<float> sine(double amplitude, double hz, double rate, std::size_t count) {
    std::vector<float> samples(count);
    for (std::size_t i = 0; i < count; ++i) samples[i] = static_cast<float>(amplitude * std::sin(2 * std::numbers::pi * hz * i / rate));
    return samples;
}

/// y[i] = y[i-1] + (x[i] - y[i-1]) * (x[i] > y[i-1] ? 1 - e^(-1/(attack rate)) : 1 - e^(-1/(release rate))), y[-1] = 0;
/// a time constant of 0 follows at once.
inline std::vector<double> attackRelease(const std::vector<double>& x, double attack, double release, double rate) {
    const double up = attack > 0 ? 1 - std::exp(-1 / (attack * rate)) : 1;
    const double down = release > 0 ? 1 - std::exp(-1 / (release * rate)) : 1;
    std::vector<double> y(x.size());
    double previous = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        previous += (x[i] - previous) * (x[i] > previous ? up : down);
        y[i] = previous;
    }
    return y;
}

/// RMS of samples [from, to) in dBFS.
inline double rmsDb(const std::vector<float>& x, std::size_t from, std::size_t to) {
    double sum = 0;
    for (std::size_t i = from; i < to; ++i) sum += static_cast<double>(x[i]) * x[i];
    return 10 * std::log10(sum / static_cast<double>(to - from));
}

}  // namespace isochron::test
