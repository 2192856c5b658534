#include "nodes/spatial/steered_response.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "nodes/spectral/window_functions.h"

namespace isochron {
namespace {

constexpr std::int64_t kLagOversampling = 16;  // lag tables step 1/16 sample

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

SteeredResponse::SteeredResponse(const ArrayGeometry& geometry, double speedOfSound, const Settings& settings)
    : settings_(settings), micCount_(geometry.micCount()), largestDelaySeconds_(geometry.aperture() / speedOfSound) {
    const std::int64_t n = settings_.blockSize;
    if (n < 16) throw std::invalid_argument("block size " + std::to_string(n) + " is below 16 samples");
    for (int m = 0; m < micCount_; ++m) {
        for (int other = m + 1; other < micCount_; ++other) pairs_.emplace_back(m, other);
    }
    const DirectionGrid& grid = settings_.grid;
    // Store the grid's step as used (360 / count), so azimuthDegrees() matches the directions steered.
    settings_.grid.azimuthStepDegrees = 360.0 / grid.azimuthCount();
    for (int e = 0; e < grid.elevationCount(); ++e) {
        for (int a = 0; a < grid.azimuthCount(); ++a) {
            const auto delays =
                steeringDelays(geometry, directionVector(grid.azimuthDegrees(a), grid.elevationDegrees(e)), speedOfSound);
            for (const auto& [m, other] : pairs_) {
                pairDelaySeconds_.push_back(delays[static_cast<std::size_t>(m)] - delays[static_cast<std::size_t>(other)]);
            }
        }
    }
    window_.resize(static_cast<std::size_t>(n));
    fillWindow(WindowShape::Hann, window_);
    forward_ = &FftPlanCache::instance().realForward(n, PlanEffort::Estimate);
    inverse_ = &FftPlanCache::instance().realInverse(n * kLagOversampling, PlanEffort::Estimate);
    blockInput_ = SigSeg<float>::allocate(n, 0, nullptr);
    for (int m = 0; m < micCount_; ++m) {
        spectra_.push_back(SigSeg<std::complex<float>>::allocate(n / 2 + 1, 0, nullptr));
        spectrumRows_.push_back(spectra_.back().writable().data());  // sole owner: the pointer stays valid
    }
    crossSpectra_.resize(static_cast<std::size_t>((n / 2 + 1) * micCount_ * micCount_));
    pairSpectrum_ = SigSeg<std::complex<float>>::allocate(inverse_->binCount(), 0, nullptr);
    lagTable_ = SigSeg<float>::allocate(inverse_->size(), 0, nullptr);
    pairTables_.resize(pairs_.size() * static_cast<std::size_t>(inverse_->size()));
    map_.resize(static_cast<std::size_t>(grid.azimuthCount() * grid.elevationCount()));
}

DirectionEstimate SteeredResponse::estimate(std::span<const std::span<const float>> channels, double rateHz) {
    const std::int64_t n = settings_.blockSize;
    const double largestLagSamples = largestDelaySeconds_ * rateHz;
    if (4.0 * largestLagSamples > static_cast<double>(n)) {
        throw std::invalid_argument("block of " + std::to_string(n) + " samples is too short for delays of up to " +
                                    std::to_string(largestLagSamples) + " samples at " + std::to_string(rateHz) +
                                    " Hz (needs at least 4 times that)");
    }
    const double hzPerBin = rateHz / static_cast<double>(n);
    const std::int64_t firstBin = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(settings_.bandLowHz / hzPerBin)));
    const std::int64_t lastBin =
        settings_.bandHighHz < 0.0 ? n / 2 - 1
                                   : std::min<std::int64_t>(n / 2 - 1, static_cast<std::int64_t>(std::floor(settings_.bandHighHz / hzPerBin)));
    if (firstBin > lastBin) {
        throw std::invalid_argument("the band " + std::to_string(settings_.bandLowHz) + " .. " +
                                    std::to_string(settings_.bandHighHz) + " Hz holds no FFT bin at " +
                                    std::to_string(rateHz) + " Hz with blocks of " + std::to_string(n));
    }
    accumulateCrossSpectra(channels, firstBin, lastBin);
    const double constant = tabulatePairs(firstBin, lastBin);
    const std::size_t pairCount = pairs_.size();
    for (std::size_t direction = 0; direction < map_.size(); ++direction) {
        double value = constant;
        const double* delays = pairDelaySeconds_.data() + direction * pairCount;
        for (std::size_t pair = 0; pair < pairCount; ++pair) value += lagTableValue(pair, delays[pair] * rateHz);
        map_[direction] = value;
    }
    return findPeak();
}

void SteeredResponse::accumulateCrossSpectra(std::span<const std::span<const float>> channels, std::int64_t firstBin,
                                             std::int64_t lastBin) {
    const std::int64_t n = settings_.blockSize;
    const auto length = static_cast<std::int64_t>(channels.front().size());
    const std::size_t m2 = static_cast<std::size_t>(micCount_ * micCount_);
    std::fill(crossSpectra_.begin() + static_cast<std::ptrdiff_t>(firstBin * static_cast<std::int64_t>(m2)),
              crossSpectra_.begin() + static_cast<std::ptrdiff_t>((lastBin + 1) * static_cast<std::int64_t>(m2)),
              std::complex<double>());
    if (length <= n) {
        addBlock(channels, (length - n) / 2, firstBin, lastBin);  // centred, zero-padded on both sides
        return;
    }
    const std::int64_t hop = n / 2;
    std::int64_t start = 0;
    for (; start + n <= length; start += hop) addBlock(channels, start, firstBin, lastBin);
    if (start - hop + n < length) addBlock(channels, length - n, firstBin, lastBin);
}

void SteeredResponse::addBlock(std::span<const std::span<const float>> channels, std::int64_t start,
                               std::int64_t firstBin, std::int64_t lastBin) {
    const std::int64_t n = settings_.blockSize;
    float* input = blockInput_.writable().data();
    for (int m = 0; m < micCount_; ++m) {
        const std::span<const float> samples = channels[static_cast<std::size_t>(m)];
        const auto length = static_cast<std::int64_t>(samples.size());
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t index = start + i;
            input[i] = index >= 0 && index < length ? samples[static_cast<std::size_t>(index)] * window_[static_cast<std::size_t>(i)]
                                                    : 0.0f;
        }
        forward_->execute(input, spectrumRows_[static_cast<std::size_t>(m)]);
    }
    const std::size_t mics = static_cast<std::size_t>(micCount_);
    for (std::int64_t k = firstBin; k <= lastBin; ++k) {
        std::complex<double>* r = crossSpectra_.data() + static_cast<std::size_t>(k) * mics * mics;
        for (std::size_t m = 0; m < mics; ++m) {
            const std::complex<double> xm(spectrumRows_[m][k]);
            for (std::size_t other = m; other < mics; ++other) {
                const std::complex<double> xn(spectrumRows_[other][k]);
                r[m * mics + other] += xm * std::conj(xn);
            }
        }
    }
}

double SteeredResponse::tabulatePairs(std::int64_t firstBin, std::int64_t lastBin) {
    const std::size_t mics = static_cast<std::size_t>(micCount_);
    const double binCount = static_cast<double>(lastBin - firstBin + 1);
    auto crossSpectrum = [&](std::int64_t k, std::size_t m, std::size_t other) {
        return crossSpectra_[static_cast<std::size_t>(k) * mics * mics + m * mics + other];
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
        }
        return {};
    };
    if (settings_.weighting == SpectralWeighting::BeamPower && totalTrace > 0.0) constant = 1.0 / micsReal;
    if (settings_.weighting == SpectralWeighting::NormalizedBeamPower) {
        for (std::int64_t k = firstBin; k <= lastBin; ++k) constant += trace(k) > 0.0 ? 1.0 / (binCount * micsReal) : 0.0;
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

DirectionEstimate SteeredResponse::findPeak() const {
    const DirectionGrid& grid = settings_.grid;
    const int azimuths = grid.azimuthCount();
    const int elevations = grid.elevationCount();
    std::size_t best = 0;
    double sum = 0.0;
    for (std::size_t i = 0; i < map_.size(); ++i) {
        sum += map_[i];
        if (map_[i] > map_[best]) best = i;
    }
    const int bestElevation = static_cast<int>(best) / azimuths;
    const int bestAzimuth = static_cast<int>(best) % azimuths;
    auto at = [&](int e, int a) { return map_[static_cast<std::size_t>(e * azimuths + (a + azimuths) % azimuths)]; };

    DirectionEstimate estimate;
    estimate.peak = map_[best];
    estimate.mean = sum / static_cast<double>(map_.size());
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

}  // namespace isochron
