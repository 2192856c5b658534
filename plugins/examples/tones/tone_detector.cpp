#include "tone_detector.h"

#include <cmath>
#include <vector>

#include "tone.h"

namespace tones {
namespace {

using namespace isochron;

/// Gathers windows of `window` samples (anchored to sample indices) and measures each: peak, RMS, and
/// the frequency from the first and last upward zero crossing, each placed between its two samples
/// by linear interpolation.
class ToneDetector final : public Operator {
protected:
    void onActivate() override {
        window_ = params().getInt("window");
        minimumPeak_ = params().getReal("min_peak");
        samples_.reserve(static_cast<std::size_t>(window_));  // the only allocation
    }

    void process(int, Item&& item) override {
        const SigSeg<float> in = item.signal<float>();
        if (in.empty()) return;
        if (in.timebase() != timebase_ || in.startIndex() != nextIndex_) {
            timebase_ = in.timebase();
            windowStart_ = in.startIndex();
            samples_.clear();
        }
        nextIndex_ = in.endIndex();
        in.forEachSpan([&](std::span<const float> run) {
            for (float x : run) {
                samples_.push_back(x);
                if (static_cast<std::int64_t>(samples_.size()) == window_) measureWindow();
            }
        });
    }

    void onParameterChanged(std::string_view) override { minimumPeak_ = params().getReal("min_peak"); }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!timebase_) return inputProgress;
        return std::min(inputProgress, timebase_->timeOf(windowStart_));
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
            const double frequency = (upwardCrossings - 1) * timebase_->rateHz() / (lastCrossing - firstCrossing);
            const double rms = std::sqrt(sumOfSquares / static_cast<double>(samples_.size()));
            emit(0, Item::custom(new Tone(frequency, peak, rms), SampleRange{timebase_, windowStart_, window_}, frequency));
        }
        windowStart_ += window_;
        samples_.clear();
    }

    std::int64_t window_ = 0;
    double minimumPeak_ = 0;
    std::vector<float> samples_;  // the window being gathered
    const Timebase* timebase_ = nullptr;
    std::int64_t windowStart_ = 0;
    std::int64_t nextIndex_ = 0;
};

}  // namespace

OperatorDescriptor toneDetectorDescriptor() {
    OperatorDescriptor d;
    d.typeName = "tones.detect";
    d.category = "features";
    d.summary = "One tone item (frequency, peak, RMS) per window that holds a tone";
    d.documentation =
        "Cuts the signal into consecutive windows of `window` samples from the first sample seen. For each "
        "window whose peak reaches min_peak and that has at least two upward zero crossings it emits a "
        "custom<tones.tone> item: frequency_hz from the spacing of the first and last upward crossing "
        "(interpolated between samples), peak and rms. The item's value is the frequency.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "signal"}};
    d.outputs = {PortSpec{"tones", PortType::custom(Tone::kTypeName), "one tone per window that holds one"}};
    ParamSpec minimumPeak{"min_peak", ParamKind::Real, 0.01, 0.0, 1e9, "", "quieter windows are skipped (signal's unit)"};
    minimumPeak.live = true;
    d.params = {
        ParamSpec{"window", ParamKind::Int, std::int64_t{2048}, 16.0, 1048576.0, "samples", "samples per window"},
        minimumPeak,
    };
    d.create = [] { return std::make_unique<ToneDetector>(); };
    return d;
}

}  // namespace tones
