#include "nodes/spatial/direction_map.h"

#include <algorithm>
#include <cmath>

namespace isochron {
namespace {

/// Where the grid's best value sits between its neighbours: the vertex of the parabola through
/// (-1, before), (0, best), (1, after), in [-0.5, 0.5].
double parabolicOffset(double before, double best, double after) {
    const double curvature = before - 2.0 * best + after;
    if (!(curvature < 0.0)) return 0.0;
    return std::clamp(0.5 * (before - after) / curvature, -0.5, 0.5);
}

}  // namespace

int DirectionGrid::azimuthCount() const { return std::max(1, static_cast<int>(std::lround(360.0 / azimuthStepDegrees))); }

int DirectionGrid::elevationCount() const {
    return 1 + static_cast<int>(std::floor((elevationMaxDegrees - elevationMinDegrees) / elevationStepDegrees + 1e-9));
}

DirectionGrid DirectionGrid::exact() const {
    DirectionGrid grid = *this;
    grid.azimuthStepDegrees = 360.0 / azimuthCount();
    return grid;
}

DirectionEstimate refinePeak(std::span<const double> map, const DirectionGrid& grid, std::size_t cell) {
    const int azimuths = grid.azimuthCount();
    const int elevations = grid.elevationCount();
    double sum = 0.0;
    for (double value : map) sum += value;
    const int bestElevation = static_cast<int>(cell) / azimuths;
    const int bestAzimuth = static_cast<int>(cell) % azimuths;
    auto at = [&](int e, int a) { return map[static_cast<std::size_t>(e * azimuths + (a + azimuths) % azimuths)]; };

    DirectionEstimate estimate;
    estimate.peak = map[cell];
    estimate.mean = sum / static_cast<double>(map.size());
    double azimuthOffset = 0.0;
    if (azimuths >= 3) {
        azimuthOffset = parabolicOffset(at(bestElevation, bestAzimuth - 1), estimate.peak, at(bestElevation, bestAzimuth + 1));
    }
    double elevationOffset = 0.0;
    if (bestElevation > 0 && bestElevation + 1 < elevations) {
        elevationOffset = parabolicOffset(at(bestElevation - 1, bestAzimuth), estimate.peak, at(bestElevation + 1, bestAzimuth));
    }
    const double azimuth = (bestAzimuth + azimuthOffset) * grid.azimuthStepDegrees;
    estimate.azimuthDegrees = azimuth < 0.0 ? azimuth + 360.0 : (azimuth >= 360.0 ? azimuth - 360.0 : azimuth);
    estimate.elevationDegrees =
        std::clamp(grid.elevationDegrees(bestElevation) + elevationOffset * grid.elevationStepDegrees, -90.0, 90.0);
    estimate.confidence = estimate.mean < 1.0 ? std::clamp((estimate.peak - estimate.mean) / (1.0 - estimate.mean), 0.0, 1.0) : 0.0;
    return estimate;
}

std::size_t largestCell(std::span<const double> map) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < map.size(); ++i) {
        if (map[i] > map[best]) best = i;
    }
    return best;
}

std::size_t largestLocalMaxima(std::span<const double> map, const DirectionGrid& grid, std::span<std::size_t> best) {
    const int azimuths = grid.azimuthCount();
    const int elevations = grid.elevationCount();
    std::size_t found = 0;
    for (int e = 0; e < elevations; ++e) {
        for (int a = 0; a < azimuths; ++a) {
            const std::size_t cell = static_cast<std::size_t>(e * azimuths + a);
            bool isMaximum = true;
            for (int de = -1; de <= 1 && isMaximum; ++de) {
                const int ne = e + de;
                if (ne < 0 || ne >= elevations) continue;
                for (int da = -1; da <= 1; ++da) {
                    const std::size_t neighbour = static_cast<std::size_t>(ne * azimuths + (a + da + azimuths) % azimuths);
                    if (neighbour == cell) continue;
                    if (map[neighbour] > map[cell] || (map[neighbour] == map[cell] && neighbour < cell)) {
                        isMaximum = false;
                        break;
                    }
                }
            }
            if (!isMaximum) continue;
            // Insert by value into the short list of the best so far.
            std::size_t position = std::min(found, best.size());
            while (position > 0 && map[best[position - 1]] < map[cell]) --position;
            if (position >= best.size()) continue;
            for (std::size_t i = std::min(found, best.size() - 1); i > position; --i) best[i] = best[i - 1];
            best[position] = cell;
            found = std::min(found + 1, best.size());
        }
    }
    return found;
}

}  // namespace isochron
