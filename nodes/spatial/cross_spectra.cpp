#include "nodes/spatial/cross_spectra.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "nodes/spectral/window_functions.h"

namespace isochron {

CrossSpectra::CrossSpectra(int micCount, std::int64_t blockSize) : mics_(static_cast<std::size_t>(micCount)), blockSize_(blockSize) {
    if (blockSize < 16) throw std::invalid_argument("block size " + std::to_string(blockSize) + " is below 16 samples");
    window_.resize(static_cast<std::size_t>(blockSize));
    fillWindow(WindowShape::Hann, window_);
    forward_ = &FftPlanCache::instance().realForward(blockSize, PlanEffort::Estimate);
    blockInput_ = SigSeg<float>::allocate(blockSize, 0, nullptr);
    for (std::size_t m = 0; m < mics_; ++m) {
        spectra_.push_back(SigSeg<std::complex<float>>::allocate(blockSize / 2 + 1, 0, nullptr));
        spectrumRows_.push_back(spectra_.back().writable().data());  // sole owner: the pointer stays valid
    }
    matrices_.resize(static_cast<std::size_t>(blockSize / 2 + 1) * mics_ * mics_);
}

std::pair<std::int64_t, std::int64_t> CrossSpectra::bandBins(double lowHz, double highHz, double rateHz) const {
    const std::int64_t n = blockSize_;
    const double hzPerBin = rateHz / static_cast<double>(n);
    const std::int64_t firstBin = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(lowHz / hzPerBin)));
    const std::int64_t lastBin =
        highHz < 0.0 ? n / 2 - 1 : std::min<std::int64_t>(n / 2 - 1, static_cast<std::int64_t>(std::floor(highHz / hzPerBin)));
    if (firstBin > lastBin) {
        throw std::invalid_argument("the band " + std::to_string(lowHz) + " .. " + std::to_string(highHz) + " Hz holds no FFT bin at " +
                                    std::to_string(rateHz) + " Hz with blocks of " + std::to_string(n));
    }
    return {firstBin, lastBin};
}

void CrossSpectra::accumulate(std::span<const std::span<const float>> channels, std::int64_t firstBin, std::int64_t lastBin) {
    const std::int64_t n = blockSize_;
    const auto length = static_cast<std::int64_t>(channels.front().size());
    const auto perBin = static_cast<std::int64_t>(mics_ * mics_);
    std::fill(matrices_.begin() + static_cast<std::ptrdiff_t>(firstBin * perBin),
              matrices_.begin() + static_cast<std::ptrdiff_t>((lastBin + 1) * perBin), std::complex<double>());
    if (length <= n) {
        addBlock(channels, (length - n) / 2, firstBin, lastBin);  // centred, zero-padded on both sides
        return;
    }
    const std::int64_t hop = n / 2;
    std::int64_t start = 0;
    for (; start + n <= length; start += hop) addBlock(channels, start, firstBin, lastBin);
    if (start - hop + n < length) addBlock(channels, length - n, firstBin, lastBin);
}

void CrossSpectra::addBlock(std::span<const std::span<const float>> channels, std::int64_t start, std::int64_t firstBin,
                            std::int64_t lastBin) {
    const std::int64_t n = blockSize_;
    float* input = blockInput_.writable().data();
    for (std::size_t m = 0; m < mics_; ++m) {
        const std::span<const float> samples = channels[m];
        const auto length = static_cast<std::int64_t>(samples.size());
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t index = start + i;
            input[i] = index >= 0 && index < length ? samples[static_cast<std::size_t>(index)] * window_[static_cast<std::size_t>(i)]
                                                    : 0.0f;
        }
        forward_->execute(input, spectrumRows_[m]);
    }
    for (std::int64_t k = firstBin; k <= lastBin; ++k) {
        std::complex<double>* r = matrices_.data() + static_cast<std::size_t>(k) * mics_ * mics_;
        for (std::size_t m = 0; m < mics_; ++m) {
            const std::complex<double> xm(spectrumRows_[m][k]);
            for (std::size_t other = m; other < mics_; ++other) {
                const std::complex<double> xn(spectrumRows_[other][k]);
                r[m * mics_ + other] += xm * std::conj(xn);
            }
        }
    }
}

}  // namespace isochron
