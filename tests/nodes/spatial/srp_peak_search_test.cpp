// PairLagTables and SrpPeakSearch on synthetic cross-spectra of plane waves: the tables equal the
// direct sum over bins (the independent reference), and the search finds one peak per source.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "nodes/spatial/array_geometry.h"
#include "nodes/spatial/pair_lag_tables.h"
#include "nodes/spatial/srp_peak_search.h"
#include "tests/support/acoustic_simulator.h"

using namespace isochron;
using namespace isochron::test;

namespace {

constexpr double kRate = 48000.0;
constexpr std::int64_t kFrame = 1024;
constexpr double kHighHz = 12000.0;

struct Wave {
    double azimuth;
    double elevation;
    double weight;
};

/// Fills every pair's table with the PHAT cross-spectrum sum_w weight e^{-i w_k tau_mn(u)} over bins 4 .. kHighHz.
void tabulatePlaneWaves(PairLagTables& tables, const ArrayGeometry& geometry, const std::vector<Wave>& waves) {
    const std::int64_t last = static_cast<std::int64_t>(kHighHz / (kRate / kFrame));
    for (std::size_t p = 0; p < tables.pairs().size(); ++p) {
        const auto [m, n] = tables.pairs()[p];
        auto spectrum = tables.pairSpectrum();
        for (std::int64_t k = 4; k <= last; ++k) {
            const double omega = 2.0 * std::numbers::pi * static_cast<double>(k) * kRate / static_cast<double>(kFrame);
            std::complex<double> sum;
            for (const Wave& wave : waves) {
                const auto delays = steeringDelays(geometry, directionVector(wave.azimuth, wave.elevation));
                sum += wave.weight * std::polar(1.0, -omega * (delays[static_cast<std::size_t>(m)] - delays[static_cast<std::size_t>(n)]));
            }
            spectrum[static_cast<std::size_t>(k)] = std::complex<float>(sum);
        }
        tables.tabulate(p);
    }
}

}  // namespace

TEST_CASE("a pair's lag table is the cross-spectrum summed over bins at that lag", "[spatial][srp_search]") {
    const ArrayGeometry geometry = presetGeometry("circular8:0.046");
    PairLagTables tables(geometry, kSpeedOfSoundMetresPerSecond, kFrame, kRate, kHighHz);
    GaussianNoise noise(3);
    std::vector<std::vector<std::complex<double>>> spectra(tables.pairs().size());
    const std::int64_t last = static_cast<std::int64_t>(kHighHz / (kRate / kFrame));
    for (std::size_t p = 0; p < tables.pairs().size(); ++p) {
        auto spectrum = tables.pairSpectrum();
        spectra[p].resize(static_cast<std::size_t>(last + 1));
        for (std::int64_t k = 1; k <= last; ++k) {
            const std::complex<double> value(noise.next(), noise.next());
            spectra[p][static_cast<std::size_t>(k)] = value;
            spectrum[static_cast<std::size_t>(k)] = std::complex<float>(value);
        }
        tables.tabulate(p);
    }
    for (std::size_t p = 0; p < tables.pairs().size(); ++p) {
        const auto [m, n] = tables.pairs()[p];
        const double reach = (geometry.mics[static_cast<std::size_t>(n)] - geometry.mics[static_cast<std::size_t>(m)]).norm() /
                             kSpeedOfSoundMetresPerSecond;
        for (int i = 0; i < 7; ++i) {
            const double lag = reach * (2.0 * noise.uniform() - 1.0);
            double direct = 0.0;
            for (std::int64_t k = 1; k <= last; ++k) {
                const double omega = 2.0 * std::numbers::pi * static_cast<double>(k) * kRate / static_cast<double>(kFrame);
                direct += 2.0 * (spectra[p][static_cast<std::size_t>(k)] * std::polar(1.0, omega * lag)).real();
            }
            INFO("pair " << p << ", lag " << lag * 1e6 << " us");
            // Random spectra are as rough as a table can be: cubic then linear interpolation stays within 5 %
            // of the table's largest possible value (2 x the sum of magnitudes is about 3.5 x the bin count).
            CHECK(std::abs(tables.value(p, lag) - direct) < 0.05 * 3.5 * static_cast<double>(last));
        }
    }
}

TEST_CASE("the peak search finds one peak per plane wave, refined to a fraction of a degree", "[spatial][srp_search]") {
    const ArrayGeometry geometry = presetGeometry("circular8:0.046");
    PairLagTables tables(geometry, kSpeedOfSoundMetresPerSecond, kFrame, kRate, kHighHz);
    SrpPeakSearch search(tables, {});
    const std::vector<Wave> waves = {{37.3, 10.0, 1.0}, {201.6, 20.0, 0.7}};
    tabulatePlaneWaves(tables, geometry, waves);
    std::vector<DirectionPeak> peaks(3);
    const std::size_t found = search.search(1.0, peaks);
    REQUIRE(found >= 2);
    CHECK(azimuthError(peaks[0].azimuthDegrees, 37.3) < 0.5);
    CHECK(azimuthError(peaks[1].azimuthDegrees, 201.6) < 0.5);
    CHECK(peaks[0].value > peaks[1].value);
    CHECK(peaks[0].elevationDegrees == Approx(10.0).margin(5.0));
    CHECK(search.mean() < peaks[1].value);
}

TEST_CASE("the peak search of a single wave over the whole circle, square and circle arrays", "[spatial][srp_search]") {
    for (const char* preset : {"square4:0.046", "circular8:0.046"}) {
        const ArrayGeometry geometry = presetGeometry(preset);
        PairLagTables tables(geometry, kSpeedOfSoundMetresPerSecond, kFrame, kRate, kHighHz);
        SrpPeakSearch search(tables, {});
        for (const LookDirection& direction : randomDirections(20, 0.0, 30.0, 4)) {
            tabulatePlaneWaves(tables, geometry, {{direction.azimuthDegrees, direction.elevationDegrees, 1.0}});
            std::vector<DirectionPeak> peaks(1);
            REQUIRE(search.search(1.0, peaks) == 1);
            INFO(preset << " towards " << direction.azimuthDegrees << ", " << direction.elevationDegrees);
            CHECK(azimuthError(peaks[0].azimuthDegrees, direction.azimuthDegrees) < 0.5);
        }
    }
}

namespace {

/// Leaves `value` in the stack below the caller's frame, where the next calls' frames will be.
[[gnu::noinline]] void leaveOnStack(double value) {
    volatile double filler[8192];
    for (auto& slot : filler) slot = value;
}

}  // namespace

TEST_CASE("refining a peak reads only the responses it computed, whatever the stack held before", "[spatial][srp_search]") {
    // Regression: the fine scan compared each value with the centre's before the centre was computed,
    // so a large leftover in the stack kept the centre and a peak in the first quarter steps was missed.
    const ArrayGeometry geometry = presetGeometry("circular8:0.046");
    PairLagTables tables(geometry, kSpeedOfSoundMetresPerSecond, kFrame, kRate, kHighHz);
    SrpPeakSearch search(tables, {});
    const double step = SrpPeakSearch::Settings{}.azimuthStepDegrees;
    // Each a little below a coarse cell, so its fine maximum is among the first quarter steps.
    for (const double cell : {40.0, 120.0, 200.0, 280.0}) {
        const double truth = cell - 0.3 * step;
        tabulatePlaneWaves(tables, geometry, {{truth, 15.0, 1.0}});
        std::vector<DirectionPeak> clean(1);
        std::vector<DirectionPeak> poisoned(1);
        REQUIRE(search.search(1.0, clean) == 1);
        leaveOnStack(1e300);
        REQUIRE(search.search(1.0, poisoned) == 1);
        INFO("towards " << truth);
        CHECK(poisoned[0].azimuthDegrees == clean[0].azimuthDegrees);
        CHECK(poisoned[0].elevationDegrees == clean[0].elevationDegrees);
        CHECK(azimuthError(poisoned[0].azimuthDegrees, truth) < 0.5);
    }
}
