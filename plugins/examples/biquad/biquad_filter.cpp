#include "biquad_filter.h"

#include <string>

#include "biquad_coefficients.h"

namespace biquad {
namespace {

using namespace isochron::sdk;

/// Transposed direct form II in double precision; the state carries over from segment to segment,
/// so the output does not depend on how the input is split. Emits a new signal (pooled samples
/// from allocate), the way an operator that computes samples does.
class BiquadFilter final : public Operator {
protected:
    void activate() override { readParameters(); }

    void process(int, const Item& item) override {
        const Segment<float> in = item.signal<float>();
        if (in.timebase() != timebase_) {
            timebase_ = in.timebase();
            design();
            clearState();
        } else if (in.startIndex() != nextIndex_) {
            clearState();  // samples were lost: restart rather than filter across the gap
        }
        nextIndex_ = in.endIndex();
        Segment<float> out = allocate<float>(in.length(), in.startIndex(), in.timebase());
        float* y = out.writable().data();
        for (float x : in) {
            const double v = c_.b0 * x + z1_;
            z1_ = c_.b1 * x - c_.a1 * v + z2_;
            z2_ = c_.b2 * x - c_.a2 * v;
            *y++ = static_cast<float>(v);
        }
        emit(0, Item::signal(out));
    }

    void parameterChanged(std::string_view) override {
        readParameters();
        if (timebase_) design();  // keep the state: a live sweep stays continuous
    }

private:
    void readParameters() {
        response_ = responseNamed(params().text("response"));
        frequencyHz_ = params().real("frequency_hz");
        q_ = params().real("q");
    }

    void design() {
        const double nyquist = timebase_.rateHz() / 2;
        if (frequencyHz_ >= nyquist) {
            throw Error("frequency_hz " + std::to_string(frequencyHz_) + " Hz is not below half the sample rate (" + std::to_string(nyquist) + " Hz)");
        }
        c_ = designBiquad(response_, frequencyHz_, q_, timebase_.rateHz());
    }

    void clearState() { z1_ = z2_ = 0; }

    Response response_ = Response::Lowpass;
    double frequencyHz_ = 1000;
    double q_ = 0.7071;
    Timebase timebase_;
    std::int64_t nextIndex_ = 0;
    Coefficients c_;
    double z1_ = 0, z2_ = 0;
};

}  // namespace

OperatorType filterType() {
    return OperatorType::of<BiquadFilter>("biquad.filter")
        .category("filters")
        .summary("Second-order IIR filter: lowpass, highpass, bandpass or notch")
        .documentation("Filters a float signal with one biquad section (Audio EQ Cookbook coefficients, transposed direct "
                       "form II in double precision). The state carries across segments, so the result does not depend on "
                       "how the input is split; a gap in the sample indices restarts the filter. frequency_hz must stay "
                       "below half the sample rate.")
        .input("in", "signal<f32>", "signal to filter")
        .output("out", "signal<f32>", "filtered signal, same sample indices")
        .param(Param::choice("response", "lowpass", {"lowpass", "highpass", "bandpass", "notch"},
                             "filter shape; bandpass has 0 dB gain at frequency_hz, notch removes it"))
        .param(Param::real("frequency_hz", 1000.0, 0.001, 1e6, "Hz",
                           "corner (lowpass, highpass) or centre (bandpass, notch) frequency, below half the sample rate")
                   .live())
        .param(Param::real("q", 0.7071, 0.01, 100.0, "", "quality factor: 0.7071 is maximally flat, higher is sharper").live());
}

}  // namespace biquad
