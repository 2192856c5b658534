// Example plugin "zero_crossing_rate": the operator "zcr.rate", a classic audio feature (high for
// noise and fricatives, about twice the pitch for a tone), computed over sliding windows that are
// anchored to sample indices, not to input segments.
#include <vector>

#include <isochron/plugin.h>

namespace {

using namespace isochron;

/// Counts sign changes between neighbouring samples and emits, per window of `window` samples every
/// `hop` samples, the crossings per second. A running count per sample index (kept for the last
/// `window` samples) makes every window's count one subtraction, however windows overlap.
class ZeroCrossingRate final : public Operator {
protected:
    void onActivate() override {
        window_ = params().getInt("window");
        hop_ = params().getInt("hop");
        runningCounts_.assign(static_cast<std::size_t>(window_), 0);  // the only allocation
    }

    void process(int, Item&& item) override {
        const SigSeg<float> in = item.signal<float>();
        if (in.empty()) return;
        if (in.timebase() != timebase_ || in.startIndex() != nextIndex_) restartAt(in.startIndex(), in.timebase());
        std::int64_t index = in.startIndex();
        in.forEachSpan([&](std::span<const float> run) {
            for (float x : run) {
                const bool negative = x < 0;
                if (index != anchor_) crossings_ += negative != previousNegative_;
                previousNegative_ = negative;
                runningCounts_[static_cast<std::size_t>(index % window_)] = crossings_;
                while (windowStart_ + window_ - 1 == index) emitWindow();
                ++index;
            }
        });
        nextIndex_ = index;
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        // The window being filled will be emitted with its start time.
        if (!timebase_) return inputProgress;
        return std::min(inputProgress, timebase_->timeOf(windowStart_));
    }

private:
    void restartAt(std::int64_t index, const Timebase* timebase) {
        timebase_ = timebase;
        anchor_ = windowStart_ = nextIndex_ = index;
        crossings_ = 0;
    }

    void emitWindow() {
        const std::int64_t counted = crossings_ - runningCounts_[static_cast<std::size_t>(windowStart_ % window_)];
        const double perSecond = static_cast<double>(counted) * timebase_->rateHz() / static_cast<double>(window_ - 1);
        emit(0, Item::scalar(perSecond, SampleRange{timebase_, windowStart_, window_}));
        windowStart_ += hop_;
    }

    std::int64_t window_ = 0;
    std::int64_t hop_ = 0;
    std::vector<std::int64_t> runningCounts_;  // crossings up to index i, at i % window
    const Timebase* timebase_ = nullptr;
    std::int64_t anchor_ = 0;       // first index after a (re)start: no crossing before it
    std::int64_t windowStart_ = 0;  // first index of the next window to emit
    std::int64_t nextIndex_ = 0;    // index expected next (a jump means lost samples)
    std::int64_t crossings_ = 0;
    bool previousNegative_ = false;
};

OperatorDescriptor zeroCrossingRateDescriptor() {
    OperatorDescriptor d;
    d.typeName = "zcr.rate";
    d.category = "features";
    d.summary = "Zero-crossing rate per sliding window, in crossings per second";
    d.documentation =
        "Counts sign changes between neighbouring samples inside each window of `window` samples, one window "
        "every `hop` samples from the first sample seen, and emits the count per second of the window's span "
        "(a tone of f Hz gives about 2 f). Windows follow sample indices, so the output does not depend on how "
        "the input is split; lost samples restart the windows.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "signal"}};
    d.outputs = {PortSpec{"rate", PortType::scalar(), "crossings per second, one scalar per window (its sample range)"}};
    d.params = {
        ParamSpec{"window", ParamKind::Int, std::int64_t{1024}, 2.0, 1048576.0, "samples", "samples per window"},
        ParamSpec{"hop", ParamKind::Int, std::int64_t{512}, 1.0, 1048576.0, "samples", "samples from one window's start to the next"},
    };
    d.create = [] { return std::make_unique<ZeroCrossingRate>(); };
    return d;
}

constexpr DescribeOperator kOperators[] = {&zeroCrossingRateDescriptor};

constexpr PluginTable kTable{
    .abiVersion = ISOCHRON_PLUGIN_ABI_VERSION,
    .toolchain = ISOCHRON_PLUGIN_TOOLCHAIN,
    .name = "zero_crossing_rate",
    .version = "1.0.0",
    .operatorCount = 1,
    .operators = kOperators,
    .capability = nullptr,
};

}  // namespace

ISOCHRON_PLUGIN_ENTRY(kTable)
