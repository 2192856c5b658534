#include "nodes/spectral/mel_bands.h"

#include "nodes/spectral/filterbank_operator.h"

namespace isochron {

OperatorDescriptor melBandsDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.mel_bands";
    d.category = "spectral";
    d.summary = "Mel bands of a power spectrum: triangular filters evenly spaced in mel (librosa's filterbank)";
    d.documentation =
        "Band i of 'bands' weighs the bins with a triangle rising from mel point i to i+1 and falling to i+2, the "
        "bands + 2 points evenly spaced in mel between low_hz and high_hz. slaney: linear below 1 kHz (3 mel per "
        "200 Hz), logarithmic above (27 mel per factor 6.4); htk: 2595 log10(1 + f/700). With normalize, each "
        "triangle is scaled by 2 / its width in Hz (librosa's norm='slaney'). Output: one value per band, the "
        "weighted sum of the input's bins, over the input frame's range. Feed it |X|^2 (spectral.magnitude with "
        "scale power, or spectral.spectrogram). The filters are designed at the first frame, whose rate fixes "
        "the bins' frequencies.";
    d.inputs = {PortSpec{"power", PortType::frame(SampleType::Float32), "one-sided power spectrum, N/2+1 values"}};
    d.outputs = {PortSpec{"bands", PortType::frame(SampleType::Float32), "one value per mel band, lowest first"}};
    d.params = {
        ParamSpec{"bands", ParamKind::Int, std::int64_t{40}, 1.0, 1024.0, "", "number of mel bands"},
        ParamSpec{"low_hz", ParamKind::Real, 0.0, 0.0, 1e6, "Hz", "lower edge of the lowest band"},
        ParamSpec{"high_hz", ParamKind::Real, 0.0, 0.0, 1e6, "Hz", "upper edge of the highest band; 0 = Nyquist"},
        ParamSpec{"scale", ParamKind::Choice, std::string("slaney"), {}, {}, "", "mel scale: slaney (librosa's default) or htk",
                  {"slaney", "htk"}},
        ParamSpec{"normalize", ParamKind::Bool, true, {}, {}, "", "scale each triangle to unit area per Hz (2 / width), as librosa"},
    };
    for (ParamSpec& spec : filterbankParameters()) d.params.push_back(std::move(spec));
    d.create = [] {
        return std::make_unique<FilterbankOperator>([](const ParamSet& params, double rateHz, std::int64_t fftSize) {
            const double high = params.getReal("high_hz") > 0.0 ? params.getReal("high_hz") : rateHz / 2.0;
            return melFilterbank(static_cast<int>(params.getInt("bands")), params.getReal("low_hz"), high, rateHz, fftSize,
                                 params.getString("scale") == "htk" ? MelScale::Htk : MelScale::Slaney, params.getBool("normalize"));
        });
    };
    return d;
}

}  // namespace isochron
