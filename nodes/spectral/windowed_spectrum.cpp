#include "nodes/spectral/windowed_spectrum.h"

#include <algorithm>

namespace isochron {

WindowedSpectrum::WindowedSpectrum(std::int64_t size, WindowShape shape, PlanEffort effort)
    : window_(static_cast<std::size_t>(size)),
      plan_(&FftPlanCache::instance().realForward(size, effort)),
      input_(SigSeg<float>::allocate(size, 0, nullptr)),
      inputData_(input_.writable().data()) {
    fillWindow(shape, window_);
}

void WindowedSpectrum::transform(const SigSeg<float>& frame, std::complex<float>* bins) {
    float* input = inputData_;
    const std::int64_t size = plan_->size();
    std::int64_t filled = 0;
    frame.forEachSpan([&](std::span<const float> run) {
        const std::int64_t take = std::min<std::int64_t>(static_cast<std::int64_t>(run.size()), size - filled);
        for (std::int64_t i = 0; i < take; ++i) input[filled + i] = run[static_cast<std::size_t>(i)] * window_[static_cast<std::size_t>(filled + i)];
        filled += take;
    });
    std::fill(input + filled, input + size, 0.0f);
    plan_->execute(input, bins);
}

}  // namespace isochron
