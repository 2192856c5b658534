#include "nodes/resample/rational_resampler.h"

#include "nodes/resample/resampler.h"

namespace isochron {

OperatorDescriptor rationalResamplerDescriptor() {
    OperatorDescriptor d;
    d.typeName = "resample.rational";
    d.category = "resample";
    d.summary = "Changes the sampling rate by an exact fraction up / down (libsoxr)";
    d.documentation =
        "The output rate is the input rate x up / down, e.g. up 160, down 147 for 44.1 kHz to 48 kHz, or up 1, down 3 for "
        "48 kHz to 16 kHz. Resampled by libsoxr with a linear-phase filter whose delay is removed: output sample m lies at "
        "the time of input position m x down / up, on the input's clock. The filter's tail is flushed at the end of the "
        "stream and at a gap (the stream restarts after it).";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "the signal to resample"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the signal at input rate x up / down"}};
    d.params = {ParamSpec{"up", ParamKind::Int, std::int64_t{3}, 1.0, 65536.0, "", "numerator of the rate change"},
                ParamSpec{"down", ParamKind::Int, std::int64_t{1}, 1.0, 65536.0, "", "denominator of the rate change"},
                resampleQualityParameter()};
    d.create = [] {
        return makeResampler([](const ParamSet& params, double inputRateHz) {
            return inputRateHz * static_cast<double>(params.getInt("up")) / static_cast<double>(params.getInt("down"));
        });
    };
    return d;
}

}  // namespace isochron
