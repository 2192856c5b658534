// WindowedSpectrum: one frame's samples times an analysis window, through a forward real FFT.
// Shared by the short-time operators (stft, spectrogram) and the beamformers.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "engine/signal/sigseg.h"
#include "nodes/spectral/fft_plan_cache.h"
#include "nodes/spectral/window_functions.h"

namespace isochron {

/// The windowed FFT of frames of one size. [one thread at a time] [no allocation after construction]
class WindowedSpectrum {
public:
    /// Frames of `size` samples (>= 1) tapered by the periodic window `shape`. Plans on first use of
    /// the size. [setup, allocates]
    WindowedSpectrum(std::int64_t size, WindowShape shape, PlanEffort effort);

    std::int64_t size() const { return plan_->size(); }
    /// N / 2 + 1 bins, 0 Hz to Nyquist.
    std::int64_t binCount() const { return plan_->binCount(); }
    /// The window's coefficients, size() of them.
    const std::vector<float>& window() const { return window_; }

    /// X_k = sum_n x_n w_n e^(-2 pi i k n / N), unnormalized (FFTW's convention), of the first size()
    /// samples of `frame` (fewer are zero-padded). `bins` holds binCount() values and is 64-byte
    /// aligned (pool storage is). [no allocation]
    void transform(const SigSeg<float>& frame, std::complex<float>* bins);

private:
    std::vector<float> window_;
    const RealForwardPlan* plan_;
    SigSeg<float> input_;  // the windowed samples: aligned as the plan requires
    float* inputData_;     // input_'s samples: sole owner, so they stay put
};

}  // namespace isochron
