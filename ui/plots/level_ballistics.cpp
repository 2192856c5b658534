#include "ui/plots/level_ballistics.h"

#include <algorithm>
#include <cmath>

namespace isochron::ui {

double amplitudeDecibels(double amplitude) {
    return amplitude > 0 ? std::max(20 * std::log10(amplitude), LevelBallistics::kFloorDecibels) : LevelBallistics::kFloorDecibels;
}

LevelBallistics::LevelBallistics(double holdSeconds, double fallDecibelsPerSecond)
    : holdSeconds_(std::clamp(holdSeconds, 0.0, 60.0)), fallDecibelsPerSecond_(std::max(fallDecibelsPerSecond, 1e-3)) {}

void LevelBallistics::update(std::span<const float> window, std::size_t fresh, std::uint64_t elapsedSamples, double rateHz) {
    if (window.empty() || rateHz <= 0) return;
    double sumOfSquares = 0;
    for (float v : window) sumOfSquares += static_cast<double>(v) * static_cast<double>(v);
    rms_ = amplitudeDecibels(std::sqrt(sumOfSquares / static_cast<double>(window.size())));
    float largest = 0;
    for (float v : window.last(std::clamp<std::size_t>(fresh, 1, window.size()))) largest = std::max(largest, std::abs(v));
    peak_ = amplitudeDecibels(largest);

    const double elapsed = static_cast<double>(elapsedSamples) / rateHz;
    if (peak_ >= held_) {
        held_ = peak_;
        holdLeftSeconds_ = holdSeconds_;
        return;
    }
    const double falling = std::max(0.0, elapsed - holdLeftSeconds_);
    holdLeftSeconds_ = std::max(0.0, holdLeftSeconds_ - elapsed);
    held_ = std::max(peak_, held_ - fallDecibelsPerSecond_ * falling);
}

void LevelBallistics::reset() {
    rms_ = peak_ = held_ = kFloorDecibels;
    holdLeftSeconds_ = 0;
}

}  // namespace isochron::ui
