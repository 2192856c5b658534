#include "nodes/detect/silence_detector.h"

#include <algorithm>
#include <optional>

#include "engine/operators/operator.h"
#include "nodes/kernels/window_statistics.h"
#include "nodes/segments/windower.h"

namespace isochron {
namespace {

/// Classifies grid-aligned windows as silent or not and merges runs of non-silent windows
/// (tolerating `hangover` silent ones inside) into time ranges.
class SilenceDetector final : public Operator {
protected:
    void onActivate() override {
        const std::int64_t window = params().getInt("window");
        windower_.emplace(window, window);
        hangover_ = params().getInt("hangover");
        threshold_ = params().getReal("threshold");
    }

    void process(int, Item&& item) override {
        SigSeg<float> samples = item.takeSignal<float>();
        if (!windower_->continuesStream(samples)) endRun();  // lost samples end a run
        windower_->push(std::move(samples), [&](SigSeg<float>&& window) {
            classify(window);
            emitProgress(earliestFutureRangeStart());
        });
    }

    TimeNs onProgress(TimeNs inputProgress) override { return std::min(inputProgress, earliestFutureRangeStart()); }

    void onFinish() override {
        endRun();
        windower_->reset();
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "threshold") threshold_ = params().getReal("threshold");
    }

private:
    void classify(const SigSeg<float>& window) {
        const bool silent = !(kernels::windowStatistics(window).stddev > threshold_);
        if (!silent) {
            if (!run_) run_ = SampleRange{window.timebase(), window.startIndex(), 0};
            run_->length = window.endIndex() - run_->start;
            silentWindowsInRun_ = 0;
        } else if (run_ && ++silentWindowsInRun_ > hangover_) {
            endRun();
        }
    }

    void endRun() {
        if (run_) emit(0, Item::timeRange(*run_));
        run_.reset();
        silentWindowsInRun_ = 0;
    }

    // An open run may still become a range starting where it started; otherwise a range can start
    // no earlier than the next window.
    TimeNs earliestFutureRangeStart() const {
        if (run_) return run_->startTime();
        const Timebase* timebase = windower_->timebase();
        return timebase ? timebase->timeOf(windower_->nextWindowStart()) : kBeginningOfTime;
    }

    std::optional<Windower<float>> windower_;
    std::optional<SampleRange> run_;  // the open run of non-silent windows, up to its last one
    std::int64_t silentWindowsInRun_ = 0;
    std::int64_t hangover_ = 0;
    double threshold_ = 0.0;
};

}  // namespace

OperatorDescriptor silenceDetectorDescriptor() {
    OperatorDescriptor d;
    d.typeName = "detect.silence_detector";
    d.category = "detect";
    d.summary = "Emits the time ranges where a signal is not silent (window stddev above a threshold)";
    d.documentation =
        "Cuts the input into consecutive windows of `window` samples on the grid of its first sample. A window "
        "is non-silent when its population standard deviation exceeds `threshold`. Consecutive non-silent "
        "windows, with up to `hangover` silent windows between them, form one range from the first to the "
        "last non-silent window; it is emitted when the run ends, at lost samples, or at the end of the "
        "stream. Progress is promised up to the earliest start a future range can have, so a downstream "
        "segments.sync can release the samples no range will select.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "the signal to watch"}};
    d.outputs = {PortSpec{"ranges", PortType::timeRange(), "non-silent stretches, in time order"}};
    ParamSpec threshold{"threshold", ParamKind::Real, 0.01, 0.0, {}, "",
                        "standard deviation above which a window is not silent, in the samples' unit"};
    threshold.live = true;
    d.params = {
        ParamSpec{"window", ParamKind::Int, std::int64_t{4096}, 1.0, 1073741824.0, "samples", "length of each analysis window"},
        threshold,
        ParamSpec{"hangover", ParamKind::Int, std::int64_t{0}, 0.0, 1000000.0, "windows",
                  "silent windows tolerated inside a run before it ends"},
    };
    d.create = [] { return std::make_unique<SilenceDetector>(); };
    return d;
}

}  // namespace isochron
