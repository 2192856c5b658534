#include "nodes/level/meter.h"

#include <algorithm>
#include <cmath>

namespace isochron {

void Meter::onActivate() {
    interval_ = params().getInt("interval");
    floorDb_ = params().getReal("floor_db");
}

void Meter::process(int, Item&& item) {
    const auto samples = item.takeSignal<float>();
    if (samples.empty()) return;
    if (!timebase_) {
        timebase_ = samples.timebase();
        ballistics_.configure(params().getReal("attack"), params().getReal("release"), timebase_->rateHz());
    }
    std::int64_t index = samples.startIndex();
    if (measuring_ && index >= intervalEnd_) report(next_);  // a gap ended the interval early
    if (!measuring_) {
        intervalStart_ = index;
        intervalEnd_ = (index / interval_ + 1) * interval_;
    }
    const bool rms = detector_ == MeterDetector::Rms;
    samples.forEachSpan([&](std::span<const float> run) {
        for (float x : run) {
            const double v = x;
            ballistics_.follow(rms ? v * v : std::fabs(v));
            measuring_ = true;
            if (++index == intervalEnd_) {
                report(index);
                intervalStart_ = index;
                intervalEnd_ = index + interval_;
            }
        }
    });
    next_ = index;
}

TimeNs Meter::onProgress(TimeNs inputProgress) {
    if (!measuring_) return inputProgress;
    return std::min(inputProgress, timebase_->timeOf(intervalStart_));
}

void Meter::onFinish() {
    if (measuring_) report(next_);
}

/// Emit the level now for the interval's samples before `end`.
void Meter::report(std::int64_t end) {
    emit(0, Item::scalar(levelDb(), SampleRange{timebase_, intervalStart_, end - intervalStart_}));
    measuring_ = false;
}

double Meter::levelDb() const {
    const double value = ballistics_.value();
    const double db = (detector_ == MeterDetector::Rms ? 10.0 : 20.0) * std::log10(value);
    return value > 0.0 ? std::max(db, floorDb_) : floorDb_;
}

OperatorDescriptor meterDescriptor(std::string typeName, std::string summary, std::string documentation, MeterDetector detector,
                                   double attackSeconds, double releaseSeconds) {
    OperatorDescriptor d;
    d.typeName = std::move(typeName);
    d.category = "level";
    d.summary = std::move(summary);
    d.documentation = std::move(documentation) +
                      " One reading per interval of samples (intervals end at indices that are multiples of it): the level at "
                      "the interval's last sample, covering the interval's samples.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples (full scale = 1)"}};
    d.outputs = {PortSpec{"level", PortType::scalar(), "level in dBFS, one per interval"}};
    d.params = {
        ParamSpec{"attack", ParamKind::Real, attackSeconds, 0.0, 60.0, "s", "time constant while the level rises (0 = at once)"},
        ParamSpec{"release", ParamKind::Real, releaseSeconds, 0.0, 60.0, "s", "time constant while the level falls (0 = at once)"},
        ParamSpec{"interval", ParamKind::Int, std::int64_t{1024}, 1.0, 1e9, "samples", "samples per reading"},
        ParamSpec{"floor_db", ParamKind::Real, -120.0, -400.0, 0.0, "dB", "the lowest level reported (silence reads this)"},
    };
    d.create = [detector] { return std::make_unique<Meter>(detector); };
    return d;
}

}  // namespace isochron
