#include "nodes/spatial/steered_response.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace isochron {
namespace {

constexpr std::int64_t kLagOversampling = 16;  // lag tables step 1/16 sample

}  // namespace

SteeredResponse::SteeredResponse(const ArrayGeometry& geometry, double speedOfSound, const Settings& settings)
    : settings_(settings),
      micCount_(geometry.micCount()),
      largestDelaySeconds_(geometry.aperture() / speedOfSound),
      crossSpectra_(geometry.micCount(), settings.blockSize) {
    const std::int64_t n = settings_.blockSize;
    for (int m = 0; m < micCount_; ++m) {
        for (int other = m + 1; other < micCount_; ++other) pairs_.emplace_back(m, other);
    }
    settings_.grid = settings_.grid.exact();
    const DirectionGrid& grid = settings_.grid;
    for (int e = 0; e < grid.elevationCount(); ++e) {
        for (int a = 0; a < grid.azimuthCount(); ++a) {
            const auto delays =
                steeringDelays(geometry, directionVector(grid.azimuthDegrees(a), grid.elevationDegrees(e)), speedOfSound);
            for (const auto& [m, other] : pairs_) {
                pairDelaySeconds_.push_back(delays[static_cast<std::size_t>(m)] - delays[static_cast<std::size_t>(other)]);
            }
        }
    }
    if (settings_.weighting == SpectralWeighting::MusicSubspace) subspace_.emplace(micCount_, settings_.sources, n);
    inverse_ = &FftPlanCache::instance().realInverse(n * kLagOversampling, PlanEffort::Estimate);
    pairSpectrum_ = SigSeg<std::complex<float>>::allocate(inverse_->binCount(), 0, nullptr);
    lagTable_ = SigSeg<float>::allocate(inverse_->size(), 0, nullptr);
    pairTables_.resize(pairs_.size() * static_cast<std::size_t>(inverse_->size()));
    map_.resize(static_cast<std::size_t>(grid.azimuthCount() * grid.elevationCount()));
}

DirectionEstimate SteeredResponse::estimate(std::span<const std::span<const float>> channels, double rateHz) {
    computeMap(channels, rateHz);
    return refinePeak(map_, settings_.grid, largestCell(map_));
}

std::size_t SteeredResponse::estimatePeaks(std::span<const std::span<const float>> channels, double rateHz,
                                           std::span<DirectionEstimate> peaks) {
    computeMap(channels, rateHz);
    std::array<std::size_t, 64> cells{};
    const std::size_t found = largestLocalMaxima(map_, settings_.grid, std::span(cells).first(std::min(cells.size(), peaks.size())));
    for (std::size_t i = 0; i < found; ++i) peaks[i] = refinePeak(map_, settings_.grid, cells[i]);
    return found;
}

void SteeredResponse::computeMap(std::span<const std::span<const float>> channels, double rateHz) {
    const std::int64_t n = settings_.blockSize;
    const double largestLagSamples = largestDelaySeconds_ * rateHz;
    if (4.0 * largestLagSamples > static_cast<double>(n)) {
        throw std::invalid_argument("block of " + std::to_string(n) + " samples is too short for delays of up to " +
                                    std::to_string(largestLagSamples) + " samples at " + std::to_string(rateHz) +
                                    " Hz (needs at least 4 times that)");
    }
    const auto [firstBin, lastBin] = crossSpectra_.bandBins(settings_.bandLowHz, settings_.bandHighHz, rateHz);
    crossSpectra_.accumulate(channels, firstBin, lastBin);
    if (subspace_) subspace_->compute(crossSpectra_, firstBin, lastBin);
    const double constant = tabulatePairs(firstBin, lastBin);
    const std::size_t pairCount = pairs_.size();
    for (std::size_t direction = 0; direction < map_.size(); ++direction) {
        double value = constant;
        const double* delays = pairDelaySeconds_.data() + direction * pairCount;
        for (std::size_t pair = 0; pair < pairCount; ++pair) value += lagTableValue(pair, delays[pair] * rateHz);
        map_[direction] = value;
    }
}

double SteeredResponse::tabulatePairs(std::int64_t firstBin, std::int64_t lastBin) {
    const std::size_t mics = static_cast<std::size_t>(micCount_);
    const double binCount = static_cast<double>(lastBin - firstBin + 1);
    // MUSIC steers the signal-subspace projectors in place of the cross-spectra.
    auto crossSpectrum = [&](std::int64_t k, std::size_t m, std::size_t other) {
        return subspace_ ? subspace_->at(k, static_cast<int>(m), static_cast<int>(other))
                         : crossSpectra_.at(k, static_cast<int>(m), static_cast<int>(other));
    };
    auto trace = [&](std::int64_t k) {
        double sum = 0.0;
        for (std::size_t m = 0; m < mics; ++m) sum += crossSpectrum(k, m, m).real();
        return sum;
    };
    double totalTrace = 0.0;
    for (std::int64_t k = firstBin; k <= lastBin; ++k) totalTrace += trace(k);

    // weightOf(k, R_mn) gives the pair spectrum whose table (2 sum_k Re(. e^{i w tau})) is that
    // pair's share of the scaled map; `constant` is the diagonal's share.
    double constant = 0.0;
    const double micsReal = static_cast<double>(micCount_);
    auto weightOf = [&](std::int64_t k, std::complex<double> r) -> std::complex<double> {
        switch (settings_.weighting) {
            case SpectralWeighting::Phat: {
                const double magnitude = std::abs(r);
                return magnitude > 0.0 ? r / (magnitude * 2.0 * static_cast<double>(pairs_.size()) * binCount)
                                       : std::complex<double>();
            }
            case SpectralWeighting::BeamPower:
                return totalTrace > 0.0 ? r / (totalTrace * micsReal) : std::complex<double>();
            case SpectralWeighting::NormalizedBeamPower: {
                const double binTrace = trace(k);
                return binTrace > 0.0 ? r / (binTrace * binCount * micsReal) : std::complex<double>();
            }
            case SpectralWeighting::MusicSubspace:
                return r / (binCount * micsReal);
        }
        return {};
    };
    if (settings_.weighting == SpectralWeighting::BeamPower && totalTrace > 0.0) constant = 1.0 / micsReal;
    if (settings_.weighting == SpectralWeighting::NormalizedBeamPower) {
        for (std::int64_t k = firstBin; k <= lastBin; ++k) constant += trace(k) > 0.0 ? 1.0 / (binCount * micsReal) : 0.0;
    }
    if (settings_.weighting == SpectralWeighting::MusicSubspace) {
        for (std::int64_t k = firstBin; k <= lastBin; ++k) constant += trace(k) / (binCount * micsReal);  // tr P_s = D, or 0
    }

    const std::size_t tableSize = static_cast<std::size_t>(inverse_->size());
    for (std::size_t pair = 0; pair < pairs_.size(); ++pair) {
        const auto [m, other] = pairs_[pair];
        std::span<std::complex<float>> spectrum = pairSpectrum_.writable();
        std::fill(spectrum.begin(), spectrum.end(), std::complex<float>());
        for (std::int64_t k = firstBin; k <= lastBin; ++k) {
            spectrum[static_cast<std::size_t>(k)] = std::complex<float>(
                weightOf(k, crossSpectrum(k, static_cast<std::size_t>(m), static_cast<std::size_t>(other))));
        }
        float* table = lagTable_.writable().data();
        inverse_->execute(spectrum.data(), table);
        std::copy(table, table + tableSize, pairTables_.begin() + static_cast<std::ptrdiff_t>(pair * tableSize));
    }
    return constant;
}

double SteeredResponse::lagTableValue(std::size_t pair, double lagSamples) const {
    const auto size = static_cast<std::int64_t>(inverse_->size());
    const double position = lagSamples * static_cast<double>(kLagOversampling);
    const double below = std::floor(position);
    const double fraction = position - below;
    // Lags are circular: negative ones sit at the end of the table.
    std::int64_t index = static_cast<std::int64_t>(below) % size;
    if (index < 0) index += size;
    const std::int64_t next = index + 1 == size ? 0 : index + 1;
    const float* table = pairTables_.data() + pair * static_cast<std::size_t>(size);
    return (1.0 - fraction) * table[index] + fraction * table[next];
}

}  // namespace isochron
