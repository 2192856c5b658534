#include "nodes/spectral/spectrogram.h"

#include <cmath>

#include "nodes/spectral/short_time_analysis.h"
#include "nodes/spectral/short_time_parameters.h"

namespace isochron {
namespace {

/// Added to the power before the logarithm so that an empty bin reads -240 dB, not -inf.
constexpr double kPowerFloor = 1e-24;

/// Frames the input, transforms each frame and emits its one-sided power per bin.
class Spectrogram final : public ShortTimeAnalysis {
protected:
    void onAnalysisActivate() override {
        bins_ = SigSeg<std::complex<float>>::allocate(spectrum().binCount(), 0, nullptr);
        density_ = params().getString("scaling") == "density";
        decibels_ = params().getBool("decibels");
        windowPower_ = 0.0;
        windowSum_ = 0.0;
        for (float w : spectrum().window()) {
            windowPower_ += static_cast<double>(w) * w;
            windowSum_ += w;
        }
        rateHz_ = 0.0;
    }

    void frameReady(const SigSeg<float>& frame, const SampleRange& range) override {
        if (range.timebase->rateHz() != rateHz_) updateScale(range.timebase->rateHz());
        std::complex<float>* bins = bins_.writable().data();
        spectrum().transform(frame, bins);
        const std::int64_t count = spectrum().binCount();
        auto power = SigSeg<float>::allocate(count, 0, nullptr);
        float* out = power.writable().data();
        const bool evenSize = spectrum().size() % 2 == 0;
        for (std::int64_t k = 0; k < count; ++k) {
            // One-sided: every bin but 0 Hz and (for even N) Nyquist stands for its negative twin too.
            const bool unpaired = k == 0 || (evenSize && k == count - 1);
            const double value = std::norm(std::complex<double>(bins[k])) * scale_ * (unpaired ? 1.0 : 2.0);
            out[k] = static_cast<float>(decibels_ ? 10.0 * std::log10(value + kPowerFloor) : value);
        }
        emit(0, Item::frame(std::move(power), range));
    }

private:
    void updateScale(double rateHz) {
        rateHz_ = rateHz;
        scale_ = density_ ? 1.0 / (rateHz * windowPower_) : 1.0 / (windowSum_ * windowSum_);
    }

    SigSeg<std::complex<float>> bins_;
    bool density_ = true;
    bool decibels_ = false;
    double windowPower_ = 0.0;  // sum of w^2
    double windowSum_ = 0.0;    // sum of w
    double rateHz_ = 0.0;       // the rate scale_ was computed for
    double scale_ = 1.0;
};

}  // namespace

OperatorDescriptor spectrogramDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.spectrogram";
    d.category = "spectral";
    d.summary = "Spectrogram frames: one-sided power of each windowed frame, as a density (V^2/Hz) or spectrum (V^2)";
    d.documentation =
        "Frames of N = 'size' samples every 'hop' samples, windowed and transformed as spectral.stft does (no edge "
        "padding unless pad_edges). Value k is the power at k * rate / N Hz, one-sided (doubled except at 0 Hz and "
        "Nyquist): density |X_k|^2 / (rate sum w^2) in V^2/Hz, or spectrum |X_k|^2 / (sum w)^2 in V^2, the scalings of "
        "scipy.signal.spectrogram (without detrending); with decibels, 10 log10(value + 1e-24). Each frame's range is its "
        "window's position.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "the signal"}};
    d.outputs = {PortSpec{"power", PortType::frame(SampleType::Float32), "N/2+1 power values per frame"}};
    d.params = shortTimeParameters("hann");
    d.deriveParams = checkShortTimeSettings;
    d.params.push_back(ParamSpec{"scaling", ParamKind::Choice, std::string("density"), {}, {}, "",
                                 "density: power spectral density in V^2/Hz; spectrum: power in V^2 (a sine of amplitude A reads A^2/2)",
                                 {"density", "spectrum"}});
    d.params.push_back(ParamSpec{"decibels", ParamKind::Bool, false, {}, {}, "", "report 10 log10 of the power (dB re 1 V^2 or 1 V^2/Hz)"});
    d.params.push_back(ParamSpec{"pad_edges", ParamKind::Bool, false, {}, {}, "",
                                 "zero-pad both ends as spectral.stft does (off: frames only inside the signal, as scipy)"});
    d.create = [] { return std::make_unique<Spectrogram>(); };
    return d;
}

}  // namespace isochron
