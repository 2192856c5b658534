#include "nodes/filters/dc_blocker.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "nodes/filters/biquad_filter.h"
#include "nodes/filters/sample_filter.h"

namespace isochron {

OperatorDescriptor dcBlockerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "filters.dc_blocker";
    d.category = "filters";
    d.summary = "Removes a DC offset and slow drift (one-pole, one-zero highpass)";
    d.documentation =
        "y[n] = g (x[n] - x[n-1]) + R y[n-1] with the pole R = exp(-2 pi cutoff_hz / rate) and g = (1 + R) / 2, so the gain "
        "is 0 at DC and exactly 1 at half the rate. About -3 dB at cutoff_hz for cutoffs well below the rate. The cutoff can "
        "change while running.";
    d.inputs = sampleFilterInputs();
    d.outputs = sampleFilterOutputs();
    ParamSpec cutoff{"cutoff_hz", ParamKind::Real, 20.0, 0.001, 1e6, "Hz", "corner below which the signal is removed"};
    cutoff.live = true;
    d.params = {cutoff};
    d.create = [] {
        return makeBiquadFilter([](const ParamSet& params, double rateHz) {
            const double cutoff = params.getReal("cutoff_hz");
            if (!(cutoff < rateHz / 2.0)) throw std::invalid_argument("the cutoff must lie below half the rate");
            const double pole = std::exp(-2.0 * std::numbers::pi * cutoff / rateHz);
            const double gain = (1.0 + pole) / 2.0;
            return std::vector<filters::BiquadSection>{{gain, -gain, 0.0, -pole, 0.0}};
        });
    };
    return d;
}

}  // namespace isochron
