// OverlapAdd: the synthesis half of a short-time transform (weighted overlap-add).
//
// Each frame's spectrum goes through the inverse FFT (divided by N), is multiplied by the synthesis
// window w (the analysis window) and added at its position; sample n is then divided by
//   sum_k w(n - s_k)^2      over the frames k that hold it,
// the least-squares inverse of Griffin & Lim (1984), which scipy.signal.istft also uses. Analysis
// and synthesis with the same w then give back the signal exactly for any hop at which that sum is
// never zero (the "NOLA" condition), whatever the window. The sum is periodic in n with period hop,
// so it is tabulated once.
//
// A sample is complete once every frame holding it has been added: after the frame at s, samples
// before s + hop. Samples are emitted from the first one that every frame could reach (the first
// frame's start + N - hop: where StftFramer's padded stream begins) to the stream's end, which a
// frame shorter than N announces (see stft_framer.h).
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/items/sample_range.h"
#include "engine/signal/sigseg.h"
#include "nodes/spectral/fft_plan_cache.h"
#include "nodes/spectral/window_functions.h"

namespace isochron {

/// Overlap-add synthesis of one stream. [one thread] [pool allocation only: the emitted samples]
class OverlapAdd {
public:
    /// Frames of `size` samples every `hop` samples with synthesis window `shape`. Throws
    /// std::invalid_argument naming the window and hop when the NOLA condition fails. [setup, allocates]
    OverlapAdd(std::int64_t size, std::int64_t hop, WindowShape shape, PlanEffort effort);

    std::int64_t size() const { return inverse_->size(); }
    std::int64_t hop() const { return hop_; }
    std::int64_t binCount() const { return inverse_->binCount(); }

    /// Whether a frame starting at `start` on `timebase` continues the current stream (true before
    /// the first frame and after the stream's end). [no allocation]
    bool continues(const Timebase* timebase, std::int64_t start) const {
        return !started_ || (timebase == timebase_ && start == nextFrameStart_);
    }
    /// Whether samples of the current stream are still held (frames added, end not reached).
    bool holdsSamples() const { return started_; }
    /// Index of the next sample to be emitted (meaningful while holdsSamples()).
    std::int64_t nextSampleIndex() const { return nextOutput_; }
    const Timebase* timebase() const { return timebase_; }

    /// Add the frame `bins` (binCount() values, unnormalized as WindowedSpectrum gives them) whose
    /// window starts at sample `range.start`; `range.length` < size() marks the stream's end. A
    /// frame that does not continue the stream starts a new one (call continues() first to warn
    /// about lost samples). Returns the samples now complete (empty if none). [pool allocation]
    SigSeg<float> add(const SampleRange& range, std::span<const std::complex<float>> bins);
    /// As add(range, bins), transforming `bins` in place when this handle is its only user (no
    /// copy; its values are lost) and copying it otherwise. [pool allocation]
    SigSeg<float> add(const SampleRange& range, SigSeg<std::complex<float>>&& bins);

    /// Forget the current stream. [no allocation]
    void reset();

private:
    /// Inverse-transform `spectrum` (overwritten) into frame_ and overlap-add it at range.start.
    SigSeg<float> addTransformed(const SampleRange& range, std::complex<float>* spectrum);

    std::int64_t hop_;
    const RealInversePlan* inverse_;
    std::vector<float> window_;           // synthesis window over N, divided by N (the inverse FFT's gain)
    std::vector<float> inverseNorm_;      // [j < hop]: 1 / sum_q w(j + q hop)^2
    SigSeg<std::complex<float>> bins_;    // aligned copy of a frame (the c2r transform overwrites it)
    SigSeg<float> frame_;                 // aligned inverse transform
    std::complex<float>* binsData_;       // bins_'s and frame_'s samples: sole owner, so they stay put
    float* frameData_;
    std::vector<float> sums_;             // [i < N]: the weighted sum for sample nextFrameStart_ - hop + i
    bool started_ = false;
    const Timebase* timebase_ = nullptr;
    std::int64_t nextFrameStart_ = 0;
    std::int64_t nextOutput_ = 0;
};

}  // namespace isochron
