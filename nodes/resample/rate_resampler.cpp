#include "nodes/resample/rate_resampler.h"

#include "nodes/resample/resampler.h"

namespace isochron {

OperatorDescriptor rateResamplerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "resample.to_rate";
    d.category = "resample";
    d.summary = "Resamples to a given rate in Hz, any ratio (libsoxr)";
    d.documentation =
        "Resamples to rate_hz whatever the input rate, including ratios that are no simple fraction (a device's measured "
        "rate). Resampled by libsoxr with a linear-phase filter whose delay is removed: output sample m lies at the time of "
        "input position m x input rate / rate_hz, on the input's clock. The filter's tail is flushed at the end of the stream "
        "and at a gap (the stream restarts after it).";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "the signal to resample"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the signal at rate_hz"}};
    d.params = {ParamSpec{"rate_hz", ParamKind::Real, 48000.0, 1.0, 1e7, "Hz", "output sampling rate"}, resampleQualityParameter()};
    d.create = [] { return makeResampler([](const ParamSet& params, double) { return params.getReal("rate_hz"); }); };
    return d;
}

}  // namespace isochron
