#include "nodes/detect/cfar_detector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/operators/operator.h"
#include "nodes/detect/noise_statistics.h"

namespace isochron {
namespace {

/// Constant false alarm rate detection over one score per window (DETECTAUDIO's detector).
///
/// The noise is modelled as Gaussian with exponentially weighted estimates of its mean and
/// deviation (time constant adapt_windows; a plain running average until that many windows have
/// been seen, so the estimate settles quickly). An event starts on a window whose score exceeds
/// mean + q deviation, once warmup_windows windows have been seen and hold_windows windows have
/// passed since the previous event ended; it goes on while scores stay at or above
/// mean + end_ratio q deviation (hysteresis) and the windows are contiguous, and ends after
/// max_windows. The estimates are frozen during an event so that the event does not raise its own
/// threshold. Events of at least min_windows windows are emitted when they end, as the range from
/// their first window's start to their last window's end, widened by pre_roll and post_roll.
class CfarDetector final : public Operator {
protected:
    void onActivate() override {
        readThresholds();
        noise_ = NoiseStatistics(params().getInt("adapt_windows"));
        warmupWindows_ = params().getInt("warmup_windows");
        holdWindows_ = params().getInt("hold_windows");
        minWindows_ = params().getInt("min_windows");
        maxWindows_ = params().getInt("max_windows");
        deviationFloor_ = params().getReal("deviation_floor");
        preRollSeconds_ = params().getReal("pre_roll");
        postRollSeconds_ = params().getReal("post_roll");
    }

    void onParameterChanged(std::string_view) override { readThresholds(); }

    void process(int, Item&& item) override {
        const SampleRange window = item.range();
        const double score = item.value();
        if (!timebase_) {
            timebase_ = window.timebase;
            firstIndex_ = window.start;
            preRollSamples_ = std::llround(preRollSeconds_ * timebase_->rateHz());
            postRollSamples_ = std::llround(postRollSeconds_ * timebase_->rateHz());
        }
        if (active_ && (window.timebase != timebase_ || window.start > eventEnd_)) endEvent();  // never stitch a gap
        timebase_ = window.timebase;

        const double deviation = noise_.deviation(deviationFloor_);
        if (active_) {
            if (score >= noise_.mean() + endRatio_ * q_ * deviation) {
                eventEnd_ = window.end();
                ++eventWindows_;
                if (maxWindows_ > 0 && eventWindows_ >= maxWindows_) endEvent();
                emitProgress(promisedTime(window));
                return;
            }
            endEvent();
        }
        const bool mayStart = noise_.count() >= warmupWindows_ && windowsSinceEvent_ >= holdWindows_;
        if (mayStart && score > noise_.mean() + q_ * deviation) {
            active_ = true;
            eventStart_ = window.start;
            eventEnd_ = window.end();
            eventWindows_ = 1;
            if (maxWindows_ == 1) endEvent();
        } else {
            noise_.learn(score);
            ++windowsSinceEvent_;
        }
        emitProgress(promisedTime(window));
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!timebase_) return inputProgress;
        // The next window starts at or after inputProgress; an event it opens starts pre_roll earlier.
        const TimeNs preRollNs = timebase_->durationOf(preRollSamples_);
        TimeNs promise = inputProgress < kBeginningOfTime + preRollNs ? kBeginningOfTime : inputProgress - preRollNs;
        if (active_) promise = std::min(promise, timebase_->timeOf(emittedStart()));
        return promise;
    }

    void onFinish() override {
        if (active_) endEvent();
    }

private:
    void readThresholds() {
        q_ = params().getReal("q");
        endRatio_ = params().getReal("end_ratio");
    }

    std::int64_t emittedStart() const { return std::max(firstIndex_, eventStart_ - preRollSamples_); }

    void endEvent() {
        active_ = false;
        windowsSinceEvent_ = 0;
        if (eventWindows_ < minWindows_) return;
        const std::int64_t start = emittedStart();
        emit(0, Item::timeRange(SampleRange{timebase_, start, eventEnd_ + postRollSamples_ - start}));
    }

    /// The earliest time an event emitted after `window` can start: the open event's start, or
    /// (the next window starts after this one) this window's start + 1 sample, less the pre-roll.
    TimeNs promisedTime(const SampleRange& window) const {
        if (active_) return timebase_->timeOf(emittedStart());
        return timebase_->timeOf(std::max(firstIndex_, window.start + 1 - preRollSamples_));
    }

    // Parameters.
    double q_ = 5.0;
    double endRatio_ = 0.5;
    std::int64_t warmupWindows_ = 100;
    std::int64_t holdWindows_ = 0;
    std::int64_t minWindows_ = 1;
    std::int64_t maxWindows_ = 0;
    double deviationFloor_ = 0.0;
    double preRollSeconds_ = 0.0;
    double postRollSeconds_ = 0.0;

    NoiseStatistics noise_;  // learnt from windows outside events

    // Stream and event state.
    const Timebase* timebase_ = nullptr;
    std::int64_t firstIndex_ = 0;  // first sample of the stream: pre-roll never reaches before it
    std::int64_t preRollSamples_ = 0;
    std::int64_t postRollSamples_ = 0;
    bool active_ = false;
    std::int64_t eventStart_ = 0;  // first window's start
    std::int64_t eventEnd_ = 0;    // last window's end
    std::int64_t eventWindows_ = 0;
    std::int64_t windowsSinceEvent_ = std::numeric_limits<std::int64_t>::max() / 2;
};

}  // namespace

OperatorDescriptor cfarDetectorDescriptor() {
    OperatorDescriptor d;
    d.typeName = "detect.cfar_detector";
    d.category = "detect";
    d.summary = "Events where a score exceeds its adaptive noise level by q deviations (CFAR, with hysteresis)";
    d.documentation =
        "Input: one score per window (e.g. spectral.weighted_band_sum), each describing its window's samples. The "
        "noise is modelled as Gaussian: exponentially weighted mean and deviation with time constant adapt_windows "
        "(a running average over the first adapt_windows windows), frozen while an event is open. After "
        "warmup_windows noise windows, an event opens on a score > mean + q deviation, provided hold_windows "
        "windows have passed since the previous event; it stays open while scores are >= mean + end_ratio q "
        "deviation and windows are contiguous (a gap in the stream closes it), and is closed after max_windows "
        "windows. Closed events of at least min_windows windows are emitted as a time range from the first "
        "window's start - pre_roll to the last window's end + post_roll (never before the stream's first sample). "
        "Progress is promised after every window, so segments.sync can release the audio no event can want.";
    d.inputs = {PortSpec{"score", PortType::scalar(), "one score per window, carrying the window's sample range"}};
    d.outputs = {PortSpec{"events", PortType::timeRange(), "one range per detected event, when it ends"}};
    d.params = {
        ParamSpec{"q", ParamKind::Real, 5.0, 0.0, 1000.0, "deviations",
                  "an event starts when score > mean + q deviation", {}, true},
        ParamSpec{"end_ratio", ParamKind::Real, 0.5, 0.0, 1.0, "",
                  "hysteresis: the event lasts while score >= mean + end_ratio q deviation", {}, true},
        ParamSpec{"adapt_windows", ParamKind::Int, std::int64_t{1000}, 1.0, 1e9, "windows",
                  "time constant of the noise mean and deviation estimates"},
        ParamSpec{"warmup_windows", ParamKind::Int, std::int64_t{100}, 0.0, 1e9, "windows",
                  "noise windows learnt before any detection"},
        ParamSpec{"hold_windows", ParamKind::Int, std::int64_t{0}, 0.0, 1e9, "windows",
                  "hold-off: windows after an event's end before a new event may start"},
        ParamSpec{"min_windows", ParamKind::Int, std::int64_t{1}, 1.0, 1e9, "windows",
                  "shorter events are dropped"},
        ParamSpec{"max_windows", ParamKind::Int, std::int64_t{0}, 0.0, 1e9, "windows",
                  "an event is closed after this many windows; 0 = no limit"},
        ParamSpec{"deviation_floor", ParamKind::Real, 0.0, 0.0, {}, "score units",
                  "smallest deviation used, so that digital silence does not make every blip an event"},
        ParamSpec{"pre_roll", ParamKind::Real, 0.0, 0.0, 60.0, "s", "time added before each event's first window"},
        ParamSpec{"post_roll", ParamKind::Real, 0.0, 0.0, 60.0, "s", "time added after each event's last window"},
    };
    d.create = [] { return std::make_unique<CfarDetector>(); };
    return d;
}

}  // namespace isochron
