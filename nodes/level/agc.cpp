#include "nodes/level/agc.h"

#include <algorithm>
#include <cmath>

#include "engine/operators/operator.h"
#include "nodes/level/ballistics.h"

namespace isochron {
namespace {

/// Averaging time of the input's mean square: long against a period of speech or music fundamentals
/// (a 300 Hz tone ripples by under 0.1 dB), short against the attack and release.
constexpr double kAverageSeconds = 0.02;

/// Feed-forward AGC: the input's mean square m is averaged over kAverageSeconds, the wanted gain is
/// min(target / sqrt(m), max gain), and the applied gain moves towards it with the attack time
/// constant while it falls (the input got louder) and the release one while it rises.
class Agc final : public Operator {
protected:
    void onActivate() override { readLevels(); }
    void onParameterChanged(std::string_view) override { readLevels(); }

    void process(int, Item&& item) override {
        const auto in = item.takeSignal<float>();
        if (!configured_) {
            const double rate = in.timebase()->rateHz();
            meanSquare_.configure(kAverageSeconds, kAverageSeconds, rate);
            // Ballistics call a rise "attack": for a gain, rising is the release.
            gain_.configure(params().getReal("release"), params().getReal("attack"), rate);
            gain_.reset(1.0);
            configured_ = true;
        }
        auto out = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        float* next = out.writable().data();
        in.forEachSpan([&](std::span<const float> run) {
            for (float x : run) {
                const double m = meanSquare_.follow(static_cast<double>(x) * x);
                // target / sqrt(m) <= maxGain  <=>  m >= (target / maxGain)^2: no division below that level.
                const double wanted = m > quietestSquare_ ? target_ / std::sqrt(m) : maxGain_;
                *next++ = static_cast<float>(x * gain_.follow(wanted));
            }
        });
        emit(0, Item::signal(std::move(out)));
    }

private:
    void readLevels() {
        target_ = std::pow(10.0, params().getReal("target_db") / 20.0);
        maxGain_ = std::pow(10.0, params().getReal("max_gain_db") / 20.0);
        quietestSquare_ = (target_ / maxGain_) * (target_ / maxGain_);
    }

    Ballistics meanSquare_;
    Ballistics gain_;
    double target_ = 0.1;
    double maxGain_ = 31.6;
    double quietestSquare_ = 1e-5;  // below this mean square the gain is at its limit
    bool configured_ = false;
};

}  // namespace

OperatorDescriptor agcDescriptor() {
    OperatorDescriptor d;
    d.typeName = "level.agc";
    d.category = "level";
    d.summary = "Automatic gain control towards a target RMS level";
    d.documentation =
        "Feed-forward: the input's mean square m is averaged with a 20 ms time constant, the wanted gain is "
        "min(10^(target_db/20) / sqrt(m), 10^(max_gain_db/20)), and the applied gain (starting at 0 dB) moves towards it "
        "with the attack time constant while it falls and the release one while it rises. A steady input settles at "
        "target_db RMS unless that needs more than max_gain_db; a short attack catches loud onsets, a long release keeps "
        "the gain from pumping between words.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples (full scale = 1)"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "samples with the gain applied"}};
    d.params = {
        ParamSpec{"target_db", ParamKind::Real, -20.0, -120.0, 0.0, "dBFS", "RMS level the output is brought to", {}, true},
        ParamSpec{"max_gain_db", ParamKind::Real, 30.0, -60.0, 120.0, "dB", "the largest gain applied (keeps silence from being blown up)", {}, true},
        ParamSpec{"attack", ParamKind::Real, 0.01, 0.0, 60.0, "s", "time constant of the gain while it falls (the input got louder)"},
        ParamSpec{"release", ParamKind::Real, 0.5, 0.0, 60.0, "s", "time constant of the gain while it rises (the input got quieter)"},
    };
    d.create = [] { return std::make_unique<Agc>(); };
    return d;
}

}  // namespace isochron
