#include "nodes/spatial/beam_pattern.h"

#include <cmath>
#include <numbers>

namespace isochron {

void steeringVector(std::span<const double> delaysSeconds, double frequencyHz, std::span<std::complex<double>> vector) {
    const double radiansPerSecond = 2.0 * std::numbers::pi * frequencyHz;
    for (std::size_t m = 0; m < delaysSeconds.size(); ++m) vector[m] = std::polar(1.0, -radiansPerSecond * delaysSeconds[m]);
}

void beamPattern(const ArrayGeometry& geometry, double speedOfSound, std::span<const std::complex<double>> weights, double frequencyHz,
                 double elevationDegrees, std::span<const double> azimuthsDegrees, std::span<float> pattern) {
    std::vector<std::complex<double>> arrival(weights.size());
    for (std::size_t i = 0; i < azimuthsDegrees.size(); ++i) {
        const auto delays = steeringDelays(geometry, directionVector(azimuthsDegrees[i], elevationDegrees), speedOfSound);
        steeringVector(delays, frequencyHz, arrival);
        std::complex<double> response;
        for (std::size_t m = 0; m < weights.size(); ++m) response += std::conj(weights[m]) * arrival[m];
        pattern[i] = static_cast<float>(10.0 * std::log10(std::max(std::norm(response), 1e-20)));
    }
}

}  // namespace isochron
