#include "tone_detector.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "tone.h"

namespace tones {
namespace {

using namespace isochron::sdk;

/// Gathers windows of `window` samples (anchored to sample indices) and measures each: peak, RMS, and
/// the frequency from the first and last upward zero crossing, each placed between its two samples
/// by linear interpolation.
class ToneDetector final : public Operator {
protected:
    void activate() override {
        window_ = params().integer("window");
        minimumPeak_ = params().real("min_peak");
        samples_.reserve(static_cast<std::size_t>(window_));  // the only allocation
    }

    void process(int, const Item& item) override {
        const Segment<float> in = item.signal<float>();
        if (in.empty()) return;
        if (in.timebase() != timebase_ || in.startIndex() != nextIndex_) {
            timebase_ = in.timebase();
            windowStart_ = in.startIndex();
            samples_.clear();
        }
        nextIndex_ = in.endIndex();
        for (float x : in) {
            samples_.push_back(x);
            if (static_cast<std::int64_t>(samples_.size()) == window_) measureWindow();
        }
    }

    void parameterChanged(std::string_view) override { minimumPeak_ = params().real("min_peak"); }

    TimeNs progress(TimeNs inputProgress) override {
        if (!timebase_) return inputProgress;
        return std::min(inputProgress, timebase_.timeOf(windowStart_));
    }

private:
    void measureWindow() {
        double peak = 0, sumOfSquares = 0;
        double firstCrossing = -1, lastCrossing = -1;
        int upwardCrossings = 0;
        for (std::size_t i = 0; i < samples_.size(); ++i) {
            const double x = samples_[i];
            peak = std::max(peak, std::fabs(x));
            sumOfSquares += x * x;
            if (i == 0 || !(samples_[i - 1] < 0 && x >= 0)) continue;
            const double before = samples_[i - 1];
            const double at = static_cast<double>(i - 1) + (-before) / (x - before);
            if (upwardCrossings++ == 0) firstCrossing = at;
            lastCrossing = at;
        }
        if (peak >= minimumPeak_ && upwardCrossings >= 2) {
            const double frequency = (upwardCrossings - 1) * timebase_.rateHz() / (lastCrossing - firstCrossing);
            const double rms = std::sqrt(sumOfSquares / static_cast<double>(samples_.size()));
            emit(0, Item::custom(kToneType, frequency, Range{timebase_, windowStart_, window_},
                                 {{kFrequencyField, frequency}, {kPeakField, peak}, {kRmsField, rms}}));
        }
        windowStart_ += window_;
        samples_.clear();
    }

    std::int64_t window_ = 0;
    double minimumPeak_ = 0;
    std::vector<float> samples_;  // the window being gathered
    Timebase timebase_;
    std::int64_t windowStart_ = 0;
    std::int64_t nextIndex_ = 0;
};

}  // namespace

OperatorType toneDetectorType() {
    return OperatorType::of<ToneDetector>("tones.detect")
        .category("features")
        .summary("One tone item (frequency, peak, RMS) per window that holds a tone")
        .documentation("Cuts the signal into consecutive windows of `window` samples from the first sample seen. For each "
                       "window whose peak reaches min_peak and that has at least two upward zero crossings it emits a "
                       "custom<tones.tone> item: frequency_hz from the spacing of the first and last upward crossing "
                       "(interpolated between samples), peak and rms. The item's value is the frequency.")
        .input("in", "signal<f32>", "signal")
        .output("tones", "custom<tones.tone>", "one tone per window that holds one")
        .param(Param::integer("window", 2048, 16, 1048576, "samples", "samples per window"))
        .param(Param::real("min_peak", 0.01, 0.0, 1e9, "", "quieter windows are skipped (signal's unit)").live());
}

}  // namespace tones
