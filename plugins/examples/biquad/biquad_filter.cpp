#include "biquad_filter.h"

#include <string>

#include "biquad_coefficients.h"

namespace biquad {
namespace {

using namespace isochron;

/// Transposed direct form II in double precision; the state carries over from segment to segment,
/// so the output does not depend on how the input is split.
class BiquadFilter final : public Operator {
protected:
    void onActivate() override { readParameters(); }

    void process(int, Item&& item) override {
        SigSeg<float> in = item.takeSignal<float>();
        if (in.timebase() != timebase_) {
            timebase_ = in.timebase();
            design();
            clearState();
        } else if (in.startIndex() != nextIndex_) {
            clearState();  // samples were lost: restart rather than filter across the gap
        }
        nextIndex_ = in.endIndex();
        SigSeg<float> out = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        float* y = out.writable().data();
        in.forEachSpan([&](std::span<const float> run) {
            for (float x : run) {
                const double v = c_.b0 * x + z1_;
                z1_ = c_.b1 * x - c_.a1 * v + z2_;
                z2_ = c_.b2 * x - c_.a2 * v;
                *y++ = static_cast<float>(v);
            }
        });
        emit(0, Item::signal(std::move(out)));
    }

    void onParameterChanged(std::string_view) override {
        readParameters();
        if (timebase_) design();  // keep the state: a live sweep stays continuous
    }

private:
    void readParameters() {
        response_ = responseNamed(params().getString("response"));
        frequencyHz_ = params().getReal("frequency_hz");
        q_ = params().getReal("q");
    }

    void design() {
        const double nyquist = timebase_->rateHz() / 2;
        if (frequencyHz_ >= nyquist) {
            throw OperatorError("frequency_hz " + std::to_string(frequencyHz_) + " Hz is not below half the sample rate (" +
                                std::to_string(nyquist) + " Hz)");
        }
        c_ = designBiquad(response_, frequencyHz_, q_, timebase_->rateHz());
    }

    void clearState() { z1_ = z2_ = 0; }

    Response response_ = Response::Lowpass;
    double frequencyHz_ = 1000;
    double q_ = 0.7071;
    const Timebase* timebase_ = nullptr;
    std::int64_t nextIndex_ = 0;
    Coefficients c_;
    double z1_ = 0, z2_ = 0;
};

}  // namespace

OperatorDescriptor filterDescriptor() {
    OperatorDescriptor d;
    d.typeName = "biquad.filter";
    d.category = "filters";
    d.summary = "Second-order IIR filter: lowpass, highpass, bandpass or notch";
    d.documentation =
        "Filters a float signal with one biquad section (Audio EQ Cookbook coefficients, transposed direct "
        "form II in double precision). The state carries across segments, so the result does not depend on "
        "how the input is split; a gap in the sample indices restarts the filter. frequency_hz must stay "
        "below half the sample rate.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "signal to filter"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "filtered signal, same sample indices"}};
    ParamSpec response{"response", ParamKind::Choice, std::string("lowpass"), {}, {}, "",
                       "filter shape; bandpass has 0 dB gain at frequency_hz, notch removes it"};
    response.choices = {"lowpass", "highpass", "bandpass", "notch"};
    ParamSpec frequency{"frequency_hz", ParamKind::Real, 1000.0, 0.001, 1e6, "Hz",
                        "corner (lowpass, highpass) or centre (bandpass, notch) frequency, below half the sample rate"};
    frequency.live = true;
    ParamSpec q{"q", ParamKind::Real, 0.7071, 0.01, 100.0, "", "quality factor: 0.7071 is maximally flat, higher is sharper"};
    q.live = true;
    d.params = {response, frequency, q};
    d.create = [] { return std::make_unique<BiquadFilter>(); };
    return d;
}

}  // namespace biquad
