#include "nodes/detect/noise_floor_tracker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace isochron {
namespace {

/// exp(-1 / (time constant in frames)): the weight of the past in a first-order recursion.
double recursionWeight(double seconds, double frameRateHz) { return std::exp(-1.0 / (seconds * frameRateHz)); }

}  // namespace

NoiseFloorTracker::NoiseFloorTracker(std::size_t bins, const Settings& settings) {
    if (bins == 0) throw std::invalid_argument("noise floor: no bins to track");
    if (!(settings.frameRateHz > 0.0) || !(settings.smoothingSeconds > 0.0) || !(settings.windowSeconds > 0.0) ||
        !(settings.presenceSeconds > 0.0) || !(settings.noiseSeconds > 0.0)) {
        throw std::invalid_argument("noise floor: frame rate and time constants must be positive");
    }
    if (settings.subWindows < 2 || settings.subWindows > 32) throw std::invalid_argument("noise floor: 2 .. 32 sub-windows");
    if (!(settings.presenceRatio > 1.0)) throw std::invalid_argument("noise floor: the presence ratio must exceed 1");
    smoothing_ = recursionWeight(settings.smoothingSeconds, settings.frameRateHz);
    presenceSmoothing_ = recursionWeight(settings.presenceSeconds, settings.frameRateHz);
    noiseSmoothing_ = recursionWeight(settings.noiseSeconds, settings.frameRateHz);
    fallSmoothing_ = recursionWeight(settings.noiseSeconds / 4.0, settings.frameRateHz);
    ratio_ = settings.presenceRatio;
    subWindows_ = settings.subWindows;
    framesPerSubWindow_ =
        std::max(1, static_cast<int>(std::lround(settings.windowSeconds * settings.frameRateHz / settings.subWindows)));
    smoothed_.resize(bins);
    currentMinimum_.resize(bins);
    historyMinimum_.resize(bins);
    history_.resize(bins * static_cast<std::size_t>(subWindows_));
    presence_.resize(bins);
    floor_.resize(bins);
    binSmoothed_.resize(bins);
    reset();
}

void NoiseFloorTracker::reset() {
    started_ = false;
    frameInSubWindow_ = 0;
    nextHistory_ = 0;
    std::fill(presence_.begin(), presence_.end(), 0.0f);
}

void NoiseFloorTracker::update(std::span<const float> power) {
    const std::size_t bins = floor_.size();
    binSmoothed_[0] = 0.75f * power[0] + 0.25f * power[std::min<std::size_t>(1, bins - 1)];
    binSmoothed_[bins - 1] = 0.75f * power[bins - 1] + 0.25f * power[bins > 1 ? bins - 2 : 0];
    for (std::size_t k = 1; k + 1 < bins; ++k) binSmoothed_[k] = 0.25f * power[k - 1] + 0.5f * power[k] + 0.25f * power[k + 1];
    if (!started_) {
        started_ = true;
        std::copy(binSmoothed_.begin(), binSmoothed_.end(), smoothed_.begin());
        std::copy(binSmoothed_.begin(), binSmoothed_.end(), currentMinimum_.begin());
        std::fill(historyMinimum_.begin(), historyMinimum_.end(), std::numeric_limits<float>::max());
        std::fill(history_.begin(), history_.end(), std::numeric_limits<float>::max());
        std::copy(power.begin(), power.end(), floor_.begin());
    }
    const auto a = static_cast<float>(smoothing_);
    const auto ap = static_cast<float>(presenceSmoothing_);
    const auto ad = static_cast<float>(noiseSmoothing_);
    const auto ratio = static_cast<float>(ratio_);
    const auto fast = static_cast<float>(fallSmoothing_);
    // Distinct arrays: restrict lets the compiler vectorize the loop.
    const float* __restrict in = power.data();
    const float* __restrict spread = binSmoothed_.data();
    float* __restrict smoothed = smoothed_.data();
    float* __restrict current = currentMinimum_.data();
    const float* __restrict history = historyMinimum_.data();
    float* __restrict presence = presence_.data();
    float* __restrict noise = floor_.data();
    for (std::size_t k = 0; k < bins; ++k) {
        const float s = a * smoothed[k] + (1.0f - a) * spread[k];
        smoothed[k] = s;
        current[k] = std::min(current[k], s);
        const float minimum = std::min(current[k], history[k]);
        const float present = s > ratio * minimum ? 1.0f : 0.0f;
        const float p = ap * presence[k] + (1.0f - ap) * present;
        presence[k] = p;
        // A frame far above the floor is sound now, before the smoothed presence has caught up; a smoothed
        // power well below the floor means the background got quieter, learnt quickly (no sound does that).
        const float loud = in[k] > 4.0f * ratio * noise[k] ? 1.0f : 0.0f;
        const float quieter = s < 0.5f * noise[k] ? 1.0f : 0.0f;
        const float weight = quieter * fast + (1.0f - quieter) * std::max(ad + (1.0f - ad) * p, loud);
        noise[k] = std::min(weight * noise[k] + (1.0f - weight) * in[k], 4.0f * ratio * minimum);
    }
    if (++frameInSubWindow_ < framesPerSubWindow_) return;
    // The sub-window is complete: it replaces the oldest in the history, and a new one begins.
    frameInSubWindow_ = 0;
    float* slot = history_.data() + static_cast<std::size_t>(nextHistory_) * bins;
    std::copy(currentMinimum_.begin(), currentMinimum_.end(), slot);
    nextHistory_ = (nextHistory_ + 1) % subWindows_;
    std::copy(smoothed_.begin(), smoothed_.end(), currentMinimum_.begin());
    std::fill(historyMinimum_.begin(), historyMinimum_.end(), std::numeric_limits<float>::max());
    for (int w = 0; w < subWindows_; ++w) {
        const float* stored = history_.data() + static_cast<std::size_t>(w) * bins;
        for (std::size_t k = 0; k < bins; ++k) historyMinimum_[k] = std::min(historyMinimum_[k], stored[k]);
    }
}

}  // namespace isochron
