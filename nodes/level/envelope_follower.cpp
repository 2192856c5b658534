#include "nodes/level/envelope_follower.h"

#include <cmath>

#include "engine/operators/operator.h"
#include "nodes/level/ballistics.h"

namespace isochron {
namespace {

/// out[i] = the detector after sample i: |x| smoothed (peak) or the square root of x^2 smoothed (rms).
class EnvelopeFollower final : public Operator {
protected:
    void onActivate() override { rms_ = params().getString("detector") == "rms"; }

    void process(int, Item&& item) override {
        const auto in = item.takeSignal<float>();
        if (!configured_) {
            ballistics_.configure(params().getReal("attack"), params().getReal("release"), in.timebase()->rateHz());
            configured_ = true;
        }
        auto envelope = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        float* out = envelope.writable().data();
        in.forEachSpan([&](std::span<const float> run) {
            if (rms_) {
                for (float x : run) *out++ = static_cast<float>(std::sqrt(ballistics_.follow(static_cast<double>(x) * x)));
            } else {
                for (float x : run) *out++ = static_cast<float>(ballistics_.follow(std::fabs(static_cast<double>(x))));
            }
        });
        emit(0, Item::signal(std::move(envelope)));
    }

private:
    Ballistics ballistics_;
    bool rms_ = false;
    bool configured_ = false;
};

}  // namespace

OperatorDescriptor envelopeFollowerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "level.envelope_follower";
    d.category = "level";
    d.summary = "Envelope of a signal, sample by sample (peak or RMS, attack/release)";
    d.documentation =
        "peak: |x| smoothed by a one-pole filter whose time constant is attack while the envelope rises and release while it "
        "falls; rms: the square root of x^2 smoothed the same way. Linear amplitude, same range as the input.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "samples"}};
    d.outputs = {PortSpec{"envelope", PortType::signal(SampleType::Float32), "envelope, linear, one per input sample"}};
    d.params = {
        ParamSpec{"detector", ParamKind::Choice, std::string("peak"), {}, {}, "", "peak (|x|) or rms (x^2, then square root)", {"peak", "rms"}},
        ParamSpec{"attack", ParamKind::Real, 0.001, 0.0, 60.0, "s", "time constant while the envelope rises (0 = at once)"},
        ParamSpec{"release", ParamKind::Real, 0.05, 0.0, 60.0, "s", "time constant while the envelope falls (0 = at once)"},
    };
    d.create = [] { return std::make_unique<EnvelopeFollower>(); };
    return d;
}

}  // namespace isochron
