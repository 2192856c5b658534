#include "nodes/filters/chebyshev1.h"

#include "nodes/filters/biquad_filter.h"
#include "nodes/filters/iir_design.h"
#include "nodes/filters/sample_filter.h"

namespace isochron {

OperatorDescriptor chebyshev1Descriptor() {
    OperatorDescriptor d;
    d.typeName = "filters.chebyshev1";
    d.category = "filters";
    d.summary = "Chebyshev type I IIR lowpass, highpass, bandpass or bandstop (steeper, rippled pass band)";
    d.documentation =
        "The Chebyshev type I design of scipy.signal.cheby1 (analog prototype, prewarped bilinear transform) run as a cascade "
        "of biquads in double precision. The pass band ripples by ripple_db up to the cutoff (an even order starts at its "
        "bottom, -ripple_db at DC), in exchange for a steeper transition than a Butterworth of the same order. Cutoffs can "
        "change while running (the state is kept).";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    d.params = classicIirParameters();
    d.params.push_back(ParamSpec{"ripple_db", ParamKind::Real, 1.0, 0.001, 20.0, "dB", "peak-to-peak ripple allowed in the pass band"});
    d.create = [] {
        return makeBiquadFilter([](const ParamSet& params, double rateHz) {
            filters::IirSpecification spec;
            spec.family = filters::IirFamily::Chebyshev1;
            spec.response = *filters::iirResponseFromName(params.getString("response"));
            spec.order = static_cast<int>(params.getInt("order"));
            spec.lowHz = params.getReal("cutoff_hz");
            spec.highHz = params.getReal("high_cutoff_hz");
            spec.rateHz = rateHz;
            spec.rippleDb = params.getReal("ripple_db");
            return filters::designIir(spec);
        });
    };
    return d;
}

}  // namespace isochron
