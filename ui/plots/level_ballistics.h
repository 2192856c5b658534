// A level meter's readings: RMS and peak of a signal's newest samples in dBFS (relative to amplitude
// 1, so a full-scale sine reads 0 dBFS peak and −3.01 dBFS RMS), and the peak held for a while, then
// falling. Time is the stream's (samples over the rate), never the clock's, so a graph running
// faster than real time holds its peaks for the same stretch of signal. No Qt.
#pragma once

#include <cstdint>
#include <span>

namespace isochron::ui {

/// RMS, peak and held peak of a signal for a meter. [one thread at a time]
class LevelBallistics {
public:
    /// Readings of silence and of no signal yet, in dBFS.
    static constexpr double kFloorDecibels = -120;

    /// `holdSeconds` (0 … 60 s): how long a peak stays before it falls; `fallDecibelsPerSecond`
    /// (> 0 dB/s): how fast a held peak then falls, until the current peak catches it.
    explicit LevelBallistics(double holdSeconds = 2, double fallDecibelsPerSecond = 20);

    /// Take the newest samples: the RMS is over all of `window` (oldest first), the peak over its
    /// last `fresh` values (those new since the last update; at most window.size()), and the hold
    /// ages by `elapsedSamples` (samples that flowed since the last update) at `rateHz` (> 0 Hz).
    void update(std::span<const float> window, std::size_t fresh, std::uint64_t elapsedSamples, double rateHz);
    /// Back to no signal.
    void reset();

    double rmsDecibels() const { return rms_; }
    double peakDecibels() const { return peak_; }
    double heldDecibels() const { return held_; }

private:
    double holdSeconds_, fallDecibelsPerSecond_;
    double rms_ = kFloorDecibels, peak_ = kFloorDecibels, held_ = kFloorDecibels;
    double holdLeftSeconds_ = 0;
};

/// 20 log10(amplitude) in dB, floored at LevelBallistics::kFloorDecibels. [any thread]
double amplitudeDecibels(double amplitude);

}  // namespace isochron::ui
