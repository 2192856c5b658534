// Narrowband steering vectors and beam patterns of a microphone array, from its geometry alone.
//
// A far-field plane wave from direction u reaches mic m at tau_m(u) (array_geometry.h), so at
// frequency f the array sees a(u)_m = e^{-i 2 pi f tau_m(u)} times the wave at the origin. A
// beamformer with weights w outputs y = w^H x; its response to u is w^H a(u), and the beam pattern
// |w^H a(u)|^2 is its power gain (1, 0 dB, where w^H a = 1: the distortionless look direction).
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "nodes/spatial/array_geometry.h"

namespace isochron {

/// a_m = e^{-i 2 pi f tau_m} for the delays `delaysSeconds` (steeringDelays()) at `frequencyHz`. [no allocation]
void steeringVector(std::span<const double> delaysSeconds, double frequencyHz, std::span<std::complex<double>> vector);

/// |w^H a(u)|^2 in dB (floored at -200 dB) for u at each azimuth of `azimuthsDegrees` and elevation
/// `elevationDegrees`, at `frequencyHz`; `pattern` has one value per azimuth. [allocates the delays]
void beamPattern(const ArrayGeometry& geometry, double speedOfSound, std::span<const std::complex<double>> weights, double frequencyHz,
                 double elevationDegrees, std::span<const double> azimuthsDegrees, std::span<float> pattern);

}  // namespace isochron
