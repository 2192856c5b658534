#include "nodes/filters/fir_filter.h"

#include <string>

#include "nodes/filters/fir_convolver.h"
#include "nodes/filters/fir_design.h"
#include "nodes/filters/sample_filter.h"

namespace isochron {
namespace {

using namespace filters;

/// The filter's specification from the node's parameters at `rateHz` (taps from the transition
/// width and attenuation when `taps` is 0).
FirSpecification specificationFrom(const ParamSet& params, double rateHz) {
    FirSpecification spec;
    spec.response = *firResponseFromName(params.getString("response"));
    spec.lowHz = params.getReal("cutoff_hz");
    spec.highHz = params.getReal("high_cutoff_hz");
    spec.rateHz = rateHz;
    spec.window = *firWindowFromName(params.getString("window"));
    spec.kaiserBeta = params.getReal("kaiser_beta");
    spec.taps = static_cast<int>(params.getInt("taps"));
    if (spec.taps == 0) {
        const KaiserOrder order = kaiserOrder(params.getReal("attenuation_db"), params.getReal("transition_hz"), rateHz);
        spec.taps = order.taps;
        spec.window = FirWindow::Kaiser;
        spec.kaiserBeta = order.beta;
        const bool passesNyquist = spec.response == FirResponse::Highpass || spec.response == FirResponse::Bandstop;
        if (passesNyquist && spec.taps % 2 == 0) ++spec.taps;
    }
    return spec;
}

/// Designs at the stream's rate and convolves; a live change redesigns (the history restarts
/// only when the tap count changes).
class FirFilter final : public SampleFilter {
protected:
    void design(double rateHz) override {
        const std::vector<double> taps = designFir(specificationFrom(params(), rateHz));
        const std::string& method = params().getString("method");
        const ConvolutionMethod chosen = method == "direct" ? ConvolutionMethod::Direct
                                         : method == "fft"  ? ConvolutionMethod::Fft
                                                            : FirConvolver::preferredMethod(taps.size());
        convolver_.setTaps(taps, chosen);
    }
    void clearState() override { convolver_.reset(); }
    void filter(const float* input, float* output, std::size_t count) override { convolver_.process(input, output, count); }

private:
    FirConvolver convolver_;
};

}  // namespace

OperatorDescriptor firFilterDescriptor() {
    OperatorDescriptor d;
    d.typeName = "filters.fir";
    d.category = "filters";
    d.summary = "Linear-phase FIR lowpass, highpass, bandpass or bandstop (window method)";
    d.documentation =
        "Designs the taps by the window method (as scipy.signal.firwin): the ideal response's impulse response tapered by "
        "the chosen window, scaled to unit gain at the centre of the first pass band. Give the length (taps) or, with taps = 0, "
        "the transition width and stop-band attenuation, from which Kaiser's formulas choose the length and a Kaiser window "
        "(scipy.signal.kaiserord). The output is delayed by (taps - 1) / 2 samples (linear phase). Runs in direct form "
        "(vectorized) or by FFT convolution (FFTW, overlap-save) for long filters; either way one output per input, at once.";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    ParamSpec response{"response", ParamKind::Choice, std::string("lowpass"), {}, {}, "", "which band passes; band responses use cutoff_hz to high_cutoff_hz"};
    response.choices = filters::firResponseNames();
    ParamSpec cutoff{"cutoff_hz", ParamKind::Real, 1000.0, 0.0, 1e7, "Hz", "cutoff (-6 dB point), or the band's lower edge; below half the rate"};
    cutoff.live = true;
    ParamSpec highCutoff{"high_cutoff_hz", ParamKind::Real, 4000.0, 0.0, 1e7, "Hz", "the band's upper edge (bandpass, bandstop)"};
    highCutoff.live = true;
    ParamSpec taps{"taps", ParamKind::Int, std::int64_t{63}, 0.0, 65536.0, "",
                   "filter length (order + 1); odd for highpass and bandstop; 0 = from transition_hz and attenuation_db"};
    ParamSpec transition{"transition_hz", ParamKind::Real, 500.0, 0.001, 1e7, "Hz", "with taps = 0: width of the transition band"};
    ParamSpec attenuation{"attenuation_db", ParamKind::Real, 60.0, 8.0, 200.0, "dB", "with taps = 0: stop-band attenuation to reach"};
    ParamSpec window{"window", ParamKind::Choice, std::string("hamming"), {}, {}, "", "taper of the ideal response (with taps > 0)"};
    window.choices = filters::firWindowNames();
    ParamSpec beta{"kaiser_beta", ParamKind::Real, 8.6, 0.0, 50.0, "", "shape of the Kaiser window (window = kaiser, taps > 0)"};
    ParamSpec method{"method", ParamKind::Choice, std::string("auto"), {}, {}, "",
                     "direct form, FFT convolution, or auto (FFT above 384 taps)"};
    method.choices = {"auto", "direct", "fft"};
    d.params = {response, cutoff, highCutoff, taps, transition, attenuation, window, beta, method};
    d.create = [] { return std::make_unique<FirFilter>(); };
    return d;
}

}  // namespace isochron
