#include "nodes/spectral/overlap_add.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace isochron {

OverlapAdd::OverlapAdd(std::int64_t size, std::int64_t hop, WindowShape shape, PlanEffort effort)
    : hop_(hop),
      inverse_(&FftPlanCache::instance().realInverse(size, effort)),
      window_(static_cast<std::size_t>(size)),
      inverseNorm_(static_cast<std::size_t>(hop)),
      bins_(SigSeg<std::complex<float>>::allocate(size / 2 + 1, 0, nullptr)),
      frame_(SigSeg<float>::allocate(size, 0, nullptr)),
      binsData_(bins_.writable().data()),
      frameData_(frame_.writable().data()),
      sums_(static_cast<std::size_t>(size)) {
    if (hop < 1 || hop > size) throw std::invalid_argument("hop " + std::to_string(hop) + " is outside 1 .. the frame size " + std::to_string(size));
    fillWindow(shape, window_);
    for (std::int64_t j = 0; j < hop; ++j) {
        double sum = 0.0;
        for (std::int64_t n = j; n < size; n += hop) sum += static_cast<double>(window_[static_cast<std::size_t>(n)]) * window_[static_cast<std::size_t>(n)];
        if (sum < 1e-10) {
            throw std::invalid_argument("the " + windowShapeNames()[static_cast<std::size_t>(shape)] + " window of " + std::to_string(size) +
                                        " samples at hop " + std::to_string(hop) +
                                        " leaves samples in no frame's support (NOLA fails): use a smaller hop");
        }
        inverseNorm_[static_cast<std::size_t>(j)] = static_cast<float>(1.0 / sum);
    }
    const float gain = 1.0f / static_cast<float>(size);
    for (float& w : window_) w *= gain;
}

SigSeg<float> OverlapAdd::add(const SampleRange& range, std::span<const std::complex<float>> bins) {
    std::copy(bins.begin(), bins.end(), binsData_);
    return addTransformed(range, binsData_);
}

SigSeg<float> OverlapAdd::add(const SampleRange& range, SigSeg<std::complex<float>>&& bins) {
    // Pool storage is 64-byte aligned as the plan wants; a view into the middle of a block is not.
    if (bins.pieceCount() != 1) return add(range, bins.materialize());
    std::complex<float>* spectrum = bins.writable().data();
    if (reinterpret_cast<std::uintptr_t>(spectrum) % 64 != 0) return add(range, std::span<const std::complex<float>>(spectrum, static_cast<std::size_t>(bins.length())));
    return addTransformed(range, spectrum);
}

SigSeg<float> OverlapAdd::addTransformed(const SampleRange& range, std::complex<float>* spectrum) {
    const std::int64_t size = inverse_->size();
    if (!continues(range.timebase, range.start)) reset();
    if (!started_) {
        started_ = true;
        timebase_ = range.timebase;
        nextOutput_ = range.start + size - hop_;
        std::fill(sums_.begin(), sums_.end(), 0.0f);
    } else {
        std::copy(sums_.begin() + hop_, sums_.end(), sums_.begin());
        std::fill(sums_.end() - hop_, sums_.end(), 0.0f);
    }
    float* samples = frameData_;
    inverse_->execute(spectrum, samples);
    for (std::int64_t i = 0; i < size; ++i) sums_[static_cast<std::size_t>(i)] += samples[i] * window_[static_cast<std::size_t>(i)];
    nextFrameStart_ = range.start + hop_;

    const bool lastFrame = range.length < size && range.end() <= range.start + hop_;
    const std::int64_t from = std::max(nextOutput_, range.start);
    const std::int64_t to = lastFrame ? range.end() : range.start + hop_;
    SigSeg<float> complete;
    if (to > from) {
        complete = SigSeg<float>::allocate(to - from, from, timebase_);
        float* out = complete.writable().data();
        for (std::int64_t n = from; n < to; ++n) {
            const auto offset = static_cast<std::size_t>(n - range.start);  // < hop
            *out++ = sums_[offset] * inverseNorm_[offset];
        }
        nextOutput_ = to;
    }
    if (lastFrame) reset();
    return complete;
}

void OverlapAdd::reset() {
    started_ = false;
}

}  // namespace isochron
