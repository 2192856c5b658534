#include "nodes/filters/cookbook_equalizer.h"

#include "nodes/filters/biquad_filter.h"
#include "nodes/filters/sample_filter.h"

namespace isochron {

OperatorDescriptor cookbookEqualizerDescriptor(filters::CookbookShape shape, std::string typeName, std::string summary) {
    const bool peaking = shape == filters::CookbookShape::Peaking;
    OperatorDescriptor d;
    d.typeName = std::move(typeName);
    d.category = "filters";
    d.summary = std::move(summary);
    d.documentation = std::string("One biquad from Robert Bristow-Johnson's Audio EQ Cookbook, in double precision. ") +
                      (peaking ? "Boosts or cuts by gain_db at frequency_hz, over a band as wide as Q says (0 dB far from it)."
                               : "Boosts or cuts by gain_db below (low shelf) or above (high shelf) frequency_hz, where the gain is "
                                 "half way in dB; slope 1 is the steepest transition without an overshoot.") +
                      " Every parameter can change while running (the state is kept).";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    ParamSpec frequency{"frequency_hz", ParamKind::Real, 1000.0, 0.0, 1e7, "Hz",
                        peaking ? "centre of the boost or cut" : "shelf midpoint (half the gain in dB)"};
    frequency.live = true;
    ParamSpec gain{"gain_db", ParamKind::Real, 6.0, -60.0, 60.0, "dB", "boost (> 0) or cut (< 0)"};
    gain.live = true;
    ParamSpec width = peaking ? ParamSpec{"q", ParamKind::Real, 0.7071, 0.01, 100.0, "", "quality factor: centre frequency / bandwidth"}
                              : ParamSpec{"slope", ParamKind::Real, 1.0, 0.01, 10.0, "", "shelf slope S (1 = steepest without overshoot)"};
    width.live = true;
    d.params = {frequency, gain, width};
    d.create = [shape] {
        return makeBiquadFilter([shape](const ParamSet& params, double rateHz) {
            filters::CookbookSpecification spec;
            spec.shape = shape;
            spec.frequencyHz = params.getReal("frequency_hz");
            spec.gainDb = params.getReal("gain_db");
            if (shape == filters::CookbookShape::Peaking) spec.q = params.getReal("q");
            else spec.slope = params.getReal("slope");
            spec.rateHz = rateHz;
            return std::vector<filters::BiquadSection>{filters::designCookbook(spec)};
        });
    };
    return d;
}

}  // namespace isochron
