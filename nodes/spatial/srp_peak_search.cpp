#include "nodes/spatial/srp_peak_search.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "nodes/spatial/array_geometry.h"

namespace isochron {
namespace {

/// Vertex offset of the parabola through (-1, before), (0, best), (1, after), in [-0.5, 0.5].
double parabolicOffset(double before, double best, double after) {
    const double curvature = before - 2.0 * best + after;
    if (!(curvature < 0.0)) return 0.0;
    return std::clamp(0.5 * (before - after) / curvature, -0.5, 0.5);
}

/// Index of the largest of a scan around a centre value (the middle element), the centre on ties.
template <std::size_t N>
int largestAt(const double (&values)[N]) {
    int best = static_cast<int>(N / 2);
    for (int i = 0; i < static_cast<int>(N); ++i) {
        if (values[i] > values[best]) best = i;
    }
    return best;
}

double wrapAzimuth(double degrees) {
    const double wrapped = std::fmod(degrees, 360.0);
    return wrapped < 0.0 ? wrapped + 360.0 : wrapped;
}

}  // namespace

SrpPeakSearch::SrpPeakSearch(const PairLagTables& tables, const Settings& settings) : tables_(tables), settings_(settings) {
    if (!(settings.azimuthStepDegrees > 0.0 && settings.azimuthStepDegrees <= 45.0)) {
        throw std::invalid_argument("azimuth step must be in (0, 45] degrees");
    }
    if (!(settings.elevationMinDegrees >= -90.0 && settings.elevationMaxDegrees <= 90.0 &&
          settings.elevationMinDegrees <= settings.elevationMaxDegrees && settings.elevationStepDegrees > 0.0)) {
        throw std::invalid_argument("elevations must satisfy -90 <= min <= max <= 90 with a positive step");
    }
    azimuths_ = std::max(3, static_cast<int>(std::lround(360.0 / settings.azimuthStepDegrees)));
    settings_.azimuthStepDegrees = 360.0 / azimuths_;
    const double span = settings.elevationMaxDegrees - settings.elevationMinDegrees;
    elevations_ = 1 + static_cast<int>(std::ceil(span / settings.elevationStepDegrees - 1e-9));
    elevationStep_ = elevations_ > 1 ? span / (elevations_ - 1) : 0.0;
    const std::size_t pairCount = tables.pairs().size();
    const std::size_t cells = static_cast<std::size_t>(azimuths_ * elevations_);
    entries_.resize(cells * pairCount);
    cellDirections_.resize(cells);
    for (int e = 0; e < elevations_; ++e) {
        for (int a = 0; a < azimuths_; ++a) {
            const std::size_t cell = static_cast<std::size_t>(e * azimuths_ + a);
            cellDirections_[cell] = directionVector(a * settings_.azimuthStepDegrees, settings.elevationMinDegrees + e * elevationStep_);
            tables.entriesFor(cellDirections_[cell], entries_.data() + cell * pairCount);
        }
    }
    map_.resize(cells);
    excluded_.resize(cells);
    scratch_.resize(pairCount);
    cosSuppression_ = std::cos(settings.suppressionDegrees * std::numbers::pi / 180.0);
}

double SrpPeakSearch::at(double azimuthDegrees, double elevationDegrees, double scale) {
    tables_.positionsFor(directionVector(azimuthDegrees, elevationDegrees), scratch_.data());
    return scale * tables_.steered(scratch_.data());
}

std::size_t SrpPeakSearch::search(double scale, std::span<DirectionPeak> peaks) {
    const std::size_t pairCount = tables_.pairs().size();
    double sum = 0.0;
    for (std::size_t cell = 0; cell < map_.size(); ++cell) {
        map_[cell] = tables_.steeredAt(entries_.data() + cell * pairCount);
        sum += map_[cell];
    }
    mean_ = scale * sum / static_cast<double>(map_.size());
    std::fill(excluded_.begin(), excluded_.end(), 0);
    std::size_t found = 0;
    while (found < peaks.size()) {
        const int cell = bestCell();
        if (cell < 0) break;
        peaks[found] = refine(cell, scale);
        const Eigen::Vector3d peak = directionVector(peaks[found].azimuthDegrees, peaks[found].elevationDegrees);
        for (std::size_t other = 0; other < map_.size(); ++other) {
            if (cellDirections_[other].dot(peak) > cosSuppression_) excluded_[other] = 1;
        }
        excluded_[static_cast<std::size_t>(cell)] = 1;
        ++found;
    }
    return found;
}

int SrpPeakSearch::bestCell() const {
    int best = -1;
    for (int e = 0; e < elevations_; ++e) {
        for (int a = 0; a < azimuths_; ++a) {
            const int cell = e * azimuths_ + a;
            if (excluded_[static_cast<std::size_t>(cell)]) continue;
            const double value = map_[static_cast<std::size_t>(cell)];
            if (best >= 0 && value <= map_[static_cast<std::size_t>(best)]) continue;
            bool isMaximum = true;
            for (int de = -1; de <= 1 && isMaximum; ++de) {
                const int ne = e + de;
                if (ne < 0 || ne >= elevations_) continue;
                for (int da = -1; da <= 1; ++da) {
                    const int neighbour = ne * azimuths_ + (a + da + azimuths_) % azimuths_;
                    if (neighbour != cell && map_[static_cast<std::size_t>(neighbour)] > value) {
                        isMaximum = false;
                        break;
                    }
                }
            }
            if (isMaximum) best = cell;
        }
    }
    return best;
}

DirectionPeak SrpPeakSearch::refine(int cell, double scale) {
    const double coarseAzimuth = (cell % azimuths_) * settings_.azimuthStepDegrees;
    double elevation = settings_.elevationMinDegrees + (cell / azimuths_) * elevationStep_;
    // Azimuth: quarter steps within one coarse step either side.
    constexpr int kSteps = 4;
    const double fine = settings_.azimuthStepDegrees / kSteps;
    double values[2 * kSteps + 1];
    for (int i = 0; i <= 2 * kSteps; ++i) values[i] = at(coarseAzimuth + (i - kSteps) * fine, elevation, 1.0);
    const int best = largestAt(values);
    double offset = 0.0;
    if (best > 0 && best < 2 * kSteps) offset = parabolicOffset(values[best - 1], values[best], values[best + 1]);
    double azimuth = wrapAzimuth(coarseAzimuth + (best - kSteps + offset) * fine);
    double value = values[best];
    if (elevations_ > 1) {
        const double fineElevation = elevationStep_ / kSteps;
        for (int i = 0; i <= 2 * kSteps; ++i) {
            const double e = std::clamp(elevation + (i - kSteps) * fineElevation, settings_.elevationMinDegrees, settings_.elevationMaxDegrees);
            values[i] = at(azimuth, e, 1.0);
        }
        const int bestE = largestAt(values);
        double offsetE = 0.0;
        const double candidate = elevation + (bestE - kSteps) * fineElevation;
        if (bestE > 0 && bestE < 2 * kSteps && candidate > settings_.elevationMinDegrees && candidate < settings_.elevationMaxDegrees) {
            offsetE = parabolicOffset(values[bestE - 1], values[bestE], values[bestE + 1]);
        }
        elevation = std::clamp(candidate + offsetE * fineElevation, settings_.elevationMinDegrees, settings_.elevationMaxDegrees);
        // The azimuth once more at the refined elevation, in sixteenths of the coarse step.
        const double finest = settings_.azimuthStepDegrees / (4 * kSteps);
        double around[3];
        for (int i = 0; i < 3; ++i) around[i] = at(azimuth + (i - 1) * finest, elevation, 1.0);
        azimuth = wrapAzimuth(azimuth + parabolicOffset(around[0], around[1], around[2]) * finest);
        value = std::max({value, values[bestE], around[1]});
    }
    return DirectionPeak{azimuth, elevation, scale * value};
}

}  // namespace isochron
