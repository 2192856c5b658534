#include "nodes/spectral/third_octave_bands.h"

#include "nodes/spectral/filterbank_operator.h"

namespace isochron {

OperatorDescriptor thirdOctaveBandsDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.third_octave_bands";
    d.category = "spectral";
    d.summary = "One-third-octave band powers of a power spectrum (IEC 61260-1 base-10 bands, 25 Hz .. 20 kHz nominal)";
    d.documentation =
        "Band m has the exact centre 1000 * 10^(m/10) Hz (nominal 25, 31.5, 40, ... 1000, 1250, ... 20000) and edges "
        "centre * 10^(-+1/20). Every band whose centre lies in [low_hz, high_hz] and whose upper edge is below Nyquist "
        "is reported, lowest first. A bin at f stands for [f - rate/2N, f + rate/2N) and counts with the fraction of "
        "that interval inside the band, so the bands add up to the power between the first lower and the last upper "
        "edge. With input density (spectral.spectrogram's default), the sum is multiplied by the bin width and a band "
        "holds its power in V^2 (a sine of amplitude A in the band: A^2/2). The bands are fixed at the first frame, "
        "whose rate fixes the bins' frequencies.";
    d.inputs = {PortSpec{"power", PortType::frame(SampleType::Float32), "one-sided power spectrum or density, N/2+1 values"}};
    d.outputs = {PortSpec{"bands", PortType::frame(SampleType::Float32), "one value per band, lowest first"}};
    d.params = {
        ParamSpec{"low_hz", ParamKind::Real, 25.0, 1.0, 1e6, "Hz", "lowest band centre to report"},
        ParamSpec{"high_hz", ParamKind::Real, 20000.0, 1.0, 1e6, "Hz", "highest band centre to report (bands past Nyquist are left out)"},
    };
    for (ParamSpec& spec : filterbankParameters()) d.params.push_back(std::move(spec));
    for (ParamSpec& spec : d.params) {
        if (spec.name == "input") spec.defaultValue = std::string("density");
    }
    d.create = [] {
        return std::make_unique<FilterbankOperator>([](const ParamSet& params, double rateHz, std::int64_t fftSize) {
            return thirdOctaveFilterbank(params.getReal("low_hz"), params.getReal("high_hz"), rateHz, fftSize);
        });
    };
    return d;
}

}  // namespace isochron
