#include "nodes/spectral/istft.h"

#include <optional>
#include <string>

#include "engine/operators/operator.h"
#include "nodes/spectral/overlap_add.h"
#include "nodes/spectral/short_time_parameters.h"

namespace isochron {
namespace {

/// Overlap-adds each spectrum at its range's start and emits the samples that are complete.
class Istft final : public Operator {
protected:
    void onActivate() override {
        try {
            const ShortTimeSettings settings = readShortTimeSettings(params());
            synthesis_.emplace(settings.size, settings.hop, settings.window, settings.effort);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(e.what());
        }
    }

    void process(int, Item&& item) override {
        const SampleRange range = item.range();
        SigSeg<std::complex<float>> bins = item.takeSignal<std::complex<float>>();
        if (bins.length() != synthesis_->binCount()) {
            throw OperatorError("a spectrum of " + std::to_string(bins.length()) + " bins arrived, but size " +
                                std::to_string(synthesis_->size()) + " needs " + std::to_string(synthesis_->binCount()) +
                                " (set size and hop as on the transform that made them)");
        }
        if (!range.timebase) throw OperatorError("a spectrum without a time range arrived: it cannot be placed in time");
        if (synthesis_->holdsSamples() && !synthesis_->continues(range.timebase, range.start)) {
            warn("a frame starts at sample " + std::to_string(range.start) + " where the hop grid expected another: samples from " +
                 std::to_string(synthesis_->nextSampleIndex()) + " of the interrupted stream are lost");
        }
        SigSeg<float> complete = synthesis_->add(range, std::move(bins));
        if (!complete.empty()) emit(0, Item::signal(std::move(complete)));
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!synthesis_->holdsSamples()) return inputProgress;
        return std::min(inputProgress, synthesis_->timebase()->timeOf(synthesis_->nextSampleIndex()));
    }

    void onFinish() override {
        if (synthesis_->holdsSamples()) {
            warn("the spectra ended without the stream's final frames: samples from " + std::to_string(synthesis_->nextSampleIndex()) +
                 " on were not rebuilt (spectral.stft with pad_edges sends them)");
        }
        synthesis_->reset();
    }

private:
    std::optional<OverlapAdd> synthesis_;
};

}  // namespace

OperatorDescriptor istftDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.istft";
    d.category = "spectral";
    d.summary = "Inverse short-time Fourier transform: spectra overlap-added back into a signal";
    d.documentation =
        "Each spectrum (N/2+1 bins, unnormalized as spectral.stft makes them) is inverse-transformed, divided by N, "
        "multiplied by the window and added at the start of its range; sample n is divided by the sum of the "
        "squared window over the frames holding it (the least-squares inverse of Griffin and Lim, as "
        "scipy.signal.istft). With the size, hop and window of the spectral.stft that made the spectra, the "
        "signal comes back exactly, spectra modified in between come back as the closest signal. Output starts "
        "N - hop samples after the first frame's start (the first sample of a padded stream) and ends where a "
        "frame shorter than N says the stream ends. A frame off the hop grid starts a new stream, with a warning. "
        "A window and hop whose squared sum vanishes somewhere (e.g. hann at hop = size) are refused.";
    d.inputs = {PortSpec{"spectrum", PortType::frame(SampleType::ComplexFloat32), "N/2+1 complex bins per frame, ranges on the hop grid"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the rebuilt signal, on the frames' timebase"}};
    d.params = shortTimeParameters("hann");
    d.deriveParams = checkShortTimeSettings;
    d.create = [] { return std::make_unique<Istft>(); };
    return d;
}

}  // namespace isochron
