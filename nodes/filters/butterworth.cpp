#include "nodes/filters/butterworth.h"

#include "nodes/filters/biquad_filter.h"
#include "nodes/filters/iir_design.h"
#include "nodes/filters/sample_filter.h"

namespace isochron {

OperatorDescriptor butterworthDescriptor() {
    OperatorDescriptor d;
    d.typeName = "filters.butterworth";
    d.category = "filters";
    d.summary = "Butterworth IIR lowpass, highpass, bandpass or bandstop (maximally flat)";
    d.documentation =
        "The Butterworth design of scipy.signal.butter (analog prototype, prewarped bilinear transform) run as a cascade of "
        "biquads in double precision. Maximally flat pass band, -3 dB at the cutoff, 6 dB/octave per order beyond it. "
        "Cutoffs can change while running (the state is kept).";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    d.params = classicIirParameters();
    d.create = [] {
        return makeBiquadFilter([](const ParamSet& params, double rateHz) {
            filters::IirSpecification spec;
            spec.family = filters::IirFamily::Butterworth;
            spec.response = *filters::iirResponseFromName(params.getString("response"));
            spec.order = static_cast<int>(params.getInt("order"));
            spec.lowHz = params.getReal("cutoff_hz");
            spec.highHz = params.getReal("high_cutoff_hz");
            spec.rateHz = rateHz;
            return filters::designIir(spec);
        });
    };
    return d;
}

}  // namespace isochron
