#include "nodes/spectral/stft.h"

#include "nodes/spectral/short_time_analysis.h"
#include "nodes/spectral/short_time_parameters.h"

namespace isochron {
namespace {

/// Emits the windowed spectrum of each frame over its range.
class Stft final : public ShortTimeAnalysis {
protected:
    void frameReady(const SigSeg<float>& frame, const SampleRange& range) override {
        auto bins = SigSeg<std::complex<float>>::allocate(spectrum().binCount(), 0, nullptr);
        spectrum().transform(frame, bins.writable().data());
        emit(0, Item::frame(std::move(bins), range));
    }
};

}  // namespace

OperatorDescriptor stftDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.stft";
    d.category = "spectral";
    d.summary = "Short-time Fourier transform: one spectrum per overlapping frame, invertible by spectral.istft";
    d.documentation =
        "Frames of N = 'size' samples start every 'hop' samples; each is multiplied by the window and transformed: "
        "X_k = sum_n x_n w_n e^(-2 pi i k n / N), k = 0 .. N/2, unnormalized (as spectral.fft; scipy.signal.stft "
        "divides by sum w). Bin k is at k * rate / N Hz. Each spectrum's range is its frame's position "
        "[start, start + N). With pad_edges the first frame starts N - hop samples before the first sample and "
        "zero-padded frames continue past the last one, so every sample lies in as many frames as any other and "
        "spectral.istft with the same size, hop and window rebuilds the signal exactly; the ranges of those last "
        "frames are cut at the stream's end. Lost input samples (a jump in the index) end the stream there: "
        "frames never span a gap.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "the signal"}};
    d.outputs = {PortSpec{"spectrum", PortType::frame(SampleType::ComplexFloat32), "N/2+1 complex bins per frame"}};
    d.params = shortTimeParameters("hann");
    d.deriveParams = checkShortTimeSettings;
    d.params.push_back(ParamSpec{"pad_edges", ParamKind::Bool, true, {}, {}, "",
                                 "zero-pad both ends so that every sample can be rebuilt (off: frames only inside the signal)"});
    d.create = [] { return std::make_unique<Stft>(); };
    return d;
}

}  // namespace isochron
