// NoiseFloorTracker: a per-frequency-bin noise power estimate that follows slow changes of the
// background and ignores sounds, MCRA-style (Cohen & Berdugo, "Noise estimation by minima controlled
// recursive averaging", 2002; minimum statistics after Martin, 2001).
//
// Per frame and bin, from the power P(k) (e.g. the mean over an array's mics):
//   S(k)     = a_s S(k) + (1 - a_s) P'(k)           P' = P smoothed over bins (1/4, 1/2, 1/4)
//   Smin(k)  = min of S(k) over the last window     (sub-window minima, so a step up is followed
//                                                     after one window and a step down at once)
//   p(k)     = a_p p(k) + (1 - a_p) [S(k) > ratio Smin(k)]          presence of sound, [0, 1]
//   floor(k) = a f + (1 - a) P(k),  a = a_d + (1 - a_d) p(k)        noise power, learnt where p is low
//              a = 1 if P(k) > 4 ratio floor(k)    (loud sound already, before p has caught up)
//              a = a_d^4 if S(k) < floor(k) / 2    (the background got quieter: followed 4 times faster)
//   floor(k) = min(floor(k), 4 ratio Smin(k))       never far above the minimum (a loud start)
// with a_x = exp(-hop / time constant). The recursive mean (not the minimum) is the estimate, so it
// needs no bias correction; the minimum only decides where sound is present.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace isochron {

/// Noise power per bin from a stream of power frames. [one thread] [no allocation after construction]
class NoiseFloorTracker {
public:
    /// Time constants in seconds (> 0); frame rate in frames per second (> 0).
    struct Settings {
        double frameRateHz = 93.75;         ///< frames per second (rate / hop)
        double smoothingSeconds = 0.03;     ///< time constant of S, the power tracked for minima
        double windowSeconds = 1.5;         ///< minima are taken over this long: a step up is followed after it
        int subWindows = 6;                 ///< the window's parts, 2 .. 32 (granularity of forgetting)
        double presenceRatio = 5.0;         ///< S above this multiple of the minimum means sound, > 1
        double presenceSeconds = 0.03;      ///< time constant of the presence probability
        double noiseSeconds = 0.15;         ///< time constant of the floor where no sound is present
    };

    /// For `bins` bins (>= 1). Throws std::invalid_argument for settings out of range. [allocates]
    NoiseFloorTracker(std::size_t bins, const Settings& settings);

    /// Take one frame's power per bin (power.size() == bins(), values >= 0). [no allocation]
    void update(std::span<const float> power);
    /// Forget everything: the next frame starts afresh. [no allocation]
    void reset();

    /// Noise power per bin (same unit as the input); the first frame's power before that. [no allocation]
    std::span<const float> floor() const { return floor_; }
    /// Probability that a sound is present, per bin, [0, 1]. [no allocation]
    std::span<const float> presence() const { return presence_; }
    /// Bins tracked.
    std::size_t bins() const { return floor_.size(); }

private:
    double smoothing_, presenceSmoothing_, noiseSmoothing_, fallSmoothing_, ratio_;
    int framesPerSubWindow_;
    int subWindows_;
    int frameInSubWindow_ = 0;
    int nextHistory_ = 0;
    bool started_ = false;
    std::vector<float> smoothed_;       // S
    std::vector<float> currentMinimum_; // min of S in the current sub-window
    std::vector<float> historyMinimum_; // [bin]: min over the stored sub-windows
    std::vector<float> history_;        // [sub-window][bin]
    std::vector<float> presence_;       // p
    std::vector<float> floor_;          // noise power
    std::vector<float> binSmoothed_;    // P' of the current frame
};

}  // namespace isochron
