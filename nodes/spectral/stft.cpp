#include "nodes/spectral/stft.h"

#include <optional>

#include "engine/operators/operator.h"
#include "nodes/spectral/short_time_parameters.h"
#include "nodes/spectral/stft_framer.h"
#include "nodes/spectral/windowed_spectrum.h"

namespace isochron {
namespace {

/// Frames the input (StftFramer) and emits the windowed spectrum of each frame over its range.
class Stft final : public Operator {
protected:
    void onActivate() override {
        try {
            const ShortTimeSettings settings = readShortTimeSettings(params());
            framer_.emplace(settings.size, settings.hop, params().getBool("pad_edges"));
            spectrum_.emplace(settings.size, settings.window, settings.effort);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
    }

    void process(int, Item&& item) override {
        framer_->push(item.takeSignal<float>(), [&](const SigSeg<float>& frame, const SampleRange& range) { emitFrame(frame, range); });
    }

    TimeNs onProgress(TimeNs inputProgress) override { return framer_->promise(inputProgress); }

    void onFinish() override {
        framer_->finish([&](const SigSeg<float>& frame, const SampleRange& range) { emitFrame(frame, range); });
    }

private:
    void emitFrame(const SigSeg<float>& frame, const SampleRange& range) {
        auto bins = SigSeg<std::complex<float>>::allocate(spectrum_->binCount(), 0, nullptr);
        spectrum_->transform(frame, bins.writable().data());
        emit(0, Item::frame(std::move(bins), range));
    }

    std::optional<StftFramer> framer_;
    std::optional<WindowedSpectrum> spectrum_;
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
    d.params.push_back(ParamSpec{"pad_edges", ParamKind::Bool, true, {}, {}, "",
                                 "zero-pad both ends so that every sample can be rebuilt (off: frames only inside the signal)"});
    d.create = [] { return std::make_unique<Stft>(); };
    return d;
}

}  // namespace isochron
