// Example plugin "zero_crossing_rate": the operator "zcr.rate", a classic audio feature (high for
// noise and fricatives, about twice the pitch for a tone), computed over sliding windows that are
// anchored to sample indices, not to input segments.
#include <algorithm>
#include <vector>

#include <isochron/isochron.hpp>

namespace {

using namespace isochron::sdk;

/// Counts sign changes between neighbouring samples and emits, per window of `window` samples every
/// `hop` samples, the crossings per second. A running count per sample index (kept for the last
/// `window` samples) makes every window's count one subtraction, however windows overlap.
class ZeroCrossingRate final : public Operator {
protected:
    void activate() override {
        window_ = params().integer("window");
        hop_ = params().integer("hop");
        runningCounts_.assign(static_cast<std::size_t>(window_), 0);  // the only allocation
    }

    void process(int, const Item& item) override {
        const Segment<float> in = item.signal<float>();
        if (in.empty()) return;
        if (in.timebase() != timebase_ || in.startIndex() != nextIndex_) restartAt(in.startIndex(), in.timebase());
        std::int64_t index = in.startIndex();
        for (float x : in) {
            const bool negative = x < 0;
            if (index != anchor_) crossings_ += negative != previousNegative_;
            previousNegative_ = negative;
            runningCounts_[static_cast<std::size_t>(index % window_)] = crossings_;
            while (windowStart_ + window_ - 1 == index) emitWindow();
            ++index;
        }
        nextIndex_ = index;
    }

    TimeNs progress(TimeNs inputProgress) override {
        // The window being filled will be emitted with its start time.
        if (!timebase_) return inputProgress;
        return std::min(inputProgress, timebase_.timeOf(windowStart_));
    }

private:
    void restartAt(std::int64_t index, Timebase timebase) {
        timebase_ = timebase;
        anchor_ = windowStart_ = nextIndex_ = index;
        crossings_ = 0;
    }

    void emitWindow() {
        const std::int64_t counted = crossings_ - runningCounts_[static_cast<std::size_t>(windowStart_ % window_)];
        const double perSecond = static_cast<double>(counted) * timebase_.rateHz() / static_cast<double>(window_ - 1);
        emit(0, Item::scalar(perSecond, Range{timebase_, windowStart_, window_}));
        windowStart_ += hop_;
    }

    std::int64_t window_ = 0;
    std::int64_t hop_ = 0;
    std::vector<std::int64_t> runningCounts_;  // crossings up to index i, at i % window
    Timebase timebase_;
    std::int64_t anchor_ = 0;       // first index after a (re)start: no crossing before it
    std::int64_t windowStart_ = 0;  // first index of the next window to emit
    std::int64_t nextIndex_ = 0;    // index expected next (a jump means lost samples)
    std::int64_t crossings_ = 0;
    bool previousNegative_ = false;
};

Plugin describePlugin() {
    return Plugin("zero_crossing_rate", "1.0.0")
        .add(OperatorType::of<ZeroCrossingRate>("zcr.rate")
                 .category("features")
                 .summary("Zero-crossing rate per sliding window, in crossings per second")
                 .documentation("Counts sign changes between neighbouring samples inside each window of `window` samples, one window "
                                "every `hop` samples from the first sample seen, and emits the count per second of the window's span "
                                "(a tone of f Hz gives about 2 f). Windows follow sample indices, so the output does not depend on how "
                                "the input is split; lost samples restart the windows.")
                 .input("in", "signal<f32>", "signal")
                 .output("rate", "scalar", "crossings per second, one scalar per window (its sample range)")
                 .param(Param::integer("window", 1024, 2, 1048576, "samples", "samples per window"))
                 .param(Param::integer("hop", 512, 1, 1048576, "samples", "samples from one window's start to the next")));
}

}  // namespace

ISOCHRON_PLUGIN(describePlugin)
