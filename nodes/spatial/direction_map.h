// A map of values over a grid of look directions, and reading directions off it: the shared back end
// of the grid-search direction estimators (steered response: SRP-PHAT and AML; MUSIC).
//
// The map is stored elevation-major: cell e * azimuthCount + a is (azimuth a, elevation e). Azimuths
// wrap around; elevations do not. A peak is refined between grid points by a parabola through its
// neighbours in azimuth and in elevation. Maps are scaled so that 1 is the largest value possible
// (one coherent plane wave), which makes confidence = (peak - mean) / (1 - mean) comparable.
#pragma once

#include <cstddef>
#include <span>

namespace isochron {

/// Look directions: azimuths 0 <= az < 360 every `azimuthStepDegrees`, elevations from
/// `elevationMinDegrees` to `elevationMaxDegrees` every `elevationStepDegrees`. [value type]
struct DirectionGrid {
    double azimuthStepDegrees = 1.0;    ///< (0, 90]
    double elevationMinDegrees = 0.0;   ///< [-90, 90]
    double elevationMaxDegrees = 0.0;   ///< [elevationMinDegrees, 90]
    double elevationStepDegrees = 5.0;  ///< (0, 90]

    /// Azimuths on the grid: 360 / step, rounded (at least 1).
    int azimuthCount() const;
    /// Elevations on the grid, from the minimum up to the maximum (at least 1).
    int elevationCount() const;
    /// Cells of the map: azimuthCount() x elevationCount().
    std::size_t cellCount() const { return static_cast<std::size_t>(azimuthCount()) * static_cast<std::size_t>(elevationCount()); }
    /// Azimuth `index` in degrees (estimators set the step to 360 / azimuthCount() before use).
    double azimuthDegrees(int index) const { return index * azimuthStepDegrees; }
    /// Elevation `index` in degrees.
    double elevationDegrees(int index) const { return elevationMinDegrees + index * elevationStepDegrees; }
    /// The grid with its azimuth step made exact (360 / azimuthCount()), so cells match their directions.
    DirectionGrid exact() const;
};

/// One direction read off a map. [value type]
struct DirectionEstimate {
    double azimuthDegrees = 0.0;    ///< [0, 360), counter-clockwise from the front
    double elevationDegrees = 0.0;  ///< [-90, 90], up positive
    double peak = 0.0;              ///< the scaled map's value at the grid cell
    double mean = 0.0;              ///< the scaled map's mean over the grid
    /// (peak - mean) / (1 - mean), clamped to [0, 1]: 0 for a flat map, 1 when the peak reaches the
    /// map's largest possible value (a single coherent plane wave).
    double confidence = 0.0;
};

/// The direction of cell `cell` of `map` over `grid`, refined between grid points. [no allocation]
DirectionEstimate refinePeak(std::span<const double> map, const DirectionGrid& grid, std::size_t cell);

/// The cell holding the map's largest value (the first, on ties). [no allocation]
std::size_t largestCell(std::span<const double> map);

/// Up to best.size() local maxima of `map` (cells no smaller than any neighbour, ties going to the
/// earlier cell), largest first, into `best`; returns how many were found. [no allocation]
std::size_t largestLocalMaxima(std::span<const double> map, const DirectionGrid& grid, std::span<std::size_t> best);

}  // namespace isochron
