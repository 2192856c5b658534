// CrossSpectra: the cross-spectral matrices of one multichannel event, shared by the frequency-domain
// direction estimators (steered response: SRP-PHAT and AML; MUSIC).
//
// An event's channels are cut into blocks of N samples (hop N/2, Hann window, the last block aligned
// to the event's end; an event shorter than a block is centred and zero-padded into one), transformed,
// and summed per bin: R(k) = sum_blocks X(k) X(k)^H, an M x M Hermitian matrix (X(k) = the mics'
// spectra at bin k). Only the bins of the band asked for are accumulated.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/signal/sigseg.h"
#include "nodes/spectral/fft_plan_cache.h"

namespace isochron {

/// Block spectra and their per-bin cross-spectral matrices for one array. [engine thread]
class CrossSpectra {
public:
    /// For `micCount` mics and blocks of `blockSize` samples (>= 16). Throws std::invalid_argument
    /// for a shorter block. [setup, allocates]
    CrossSpectra(int micCount, std::int64_t blockSize);

    /// The bins [first, last] whose frequencies lie in [lowHz, highHz] at `rateHz` (highHz < 0 = up
    /// to Nyquist; 0 Hz and Nyquist are never used). Throws std::invalid_argument if none does.
    std::pair<std::int64_t, std::int64_t> bandBins(double lowHz, double highHz, double rateHz) const;
    /// R(k) of the event `channels` (mic m in channels[m], all the same length) for bins first .. last;
    /// other bins keep what they held. [no allocation]
    void accumulate(std::span<const std::span<const float>> channels, std::int64_t firstBin, std::int64_t lastBin);
    /// R(k)_mn for m <= n (the upper triangle; the lower one is its conjugate).
    std::complex<double> at(std::int64_t k, int m, int n) const {
        return matrices_[static_cast<std::size_t>(k) * mics_ * mics_ + static_cast<std::size_t>(m) * mics_ + static_cast<std::size_t>(n)];
    }

private:
    void addBlock(std::span<const std::span<const float>> channels, std::int64_t start, std::int64_t firstBin, std::int64_t lastBin);

    std::size_t mics_;
    std::int64_t blockSize_;
    std::vector<float> window_;                         // Hann, N samples
    const RealForwardPlan* forward_ = nullptr;          // N
    SigSeg<float> blockInput_;                          // N windowed samples (64-byte aligned)
    std::vector<SigSeg<std::complex<float>>> spectra_;  // [mic]: N/2 + 1 bins of the current block
    std::vector<std::complex<float>*> spectrumRows_;    // [mic]: spectra_[mic]'s samples
    std::vector<std::complex<double>> matrices_;        // [bin][m * M + n], m <= n used
};

}  // namespace isochron
