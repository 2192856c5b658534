// SrpPeakSearch: several directions per frame from a steered response held in pair lag tables
// (pair_lag_tables.h), searched coarse to fine.
//
// The response is evaluated on a coarse grid (azimuth 0 .. 360 every azimuthStep, elevations from
// min to max every elevationStep). Peaks are taken largest first among the grid's local maxima; after
// each, every cell within `suppression` degrees of it is excluded, so one source's broad lobe gives
// one peak and a second source at least that far away gives the next. Each peak is refined: a scan of
// azimuths at a quarter of the coarse step within one coarse step, a parabola through the best and its
// neighbours, then the same in elevation (unless a single elevation is searched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "nodes/spatial/pair_lag_tables.h"

namespace isochron {

/// One direction read off a frame's response. [value type]
struct DirectionPeak {
    double azimuthDegrees = 0.0;    ///< [0, 360), counter-clockwise from the array's x axis
    double elevationDegrees = 0.0;  ///< [-90, 90]
    double value = 0.0;             ///< the scaled response there
};

/// Coarse-to-fine multi-peak search over one array's lag tables. [engine thread]
class SrpPeakSearch {
public:
    struct Settings {
        double azimuthStepDegrees = 4.0;     ///< coarse azimuth step, (0, 45]
        double elevationMinDegrees = 0.0;    ///< [-90, 90]
        double elevationMaxDegrees = 30.0;   ///< [min, 90]
        double elevationStepDegrees = 15.0;  ///< coarse elevation step, > 0
        double suppressionDegrees = 25.0;    ///< cells this close to a found peak are not searched again
    };

    /// Precomputes every coarse cell's table positions for `tables` (kept by reference). Throws
    /// std::invalid_argument for settings out of range. [setup, allocates]
    SrpPeakSearch(const PairLagTables& tables, const Settings& settings);

    /// Up to peaks.size() peaks of the response currently tabulated, largest first, values
    /// multiplied by `scale`; returns how many. [no allocation]
    std::size_t search(double scale, std::span<DirectionPeak> peaks);
    /// The scaled response averaged over the coarse grid, from the last search(). [no allocation]
    double mean() const { return mean_; }
    /// The scaled response towards (azimuth, elevation) in degrees. [no allocation]
    double at(double azimuthDegrees, double elevationDegrees, double scale);

private:
    /// Largest cell that is a local maximum and not excluded; -1 if none.
    int bestCell() const;
    DirectionPeak refine(int cell, double scale);

    const PairLagTables& tables_;
    Settings settings_;
    int azimuths_ = 0;
    int elevations_ = 0;
    double elevationStep_ = 0.0;
    std::vector<std::int32_t> entries_;     // [cell][pair]: fine-table entries (pair_lag_tables.h)
    std::vector<Eigen::Vector3d> cellDirections_;
    std::vector<double> map_;               // [cell], unscaled
    std::vector<char> excluded_;            // [cell]
    std::vector<float> scratch_;            // [pair]: positions of one direction
    double mean_ = 0.0;
    double cosSuppression_ = 0.0;
};

}  // namespace isochron
