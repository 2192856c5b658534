#include "nodes/spatial/array_stft.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/runtime/ring_buffer.h"
#include "nodes/segments/windower.h"
#include "nodes/spatial/array_spectra.h"
#include "nodes/spectral/windowed_spectrum.h"

namespace isochron {
namespace {

constexpr double kAutomaticFrameSeconds = 0.0213;  // 1024 samples at 48 kHz: 47 Hz bins, 21 ms

/// The samples a window covers.
SampleRange rangeOf(const SigSeg<float>& window) { return SampleRange{window.timebase(), window.startIndex(), window.length()}; }

/// Cuts every mic's stream into Hann-windowed frames of `frame` samples every `hop` samples and
/// transforms them; emits one ArraySpectra per frame once every input has delivered it.
///
/// Each input is windowed on its own grid (Windower: starts at its first sample, resumes on the
/// grid after lost samples); a frame is emitted when the front windows of all inputs are the same
/// range. Fronts that differ (an input lost samples the others did not) are dropped, the earliest
/// first, with a warning, so the output depends only on each input's own order.
class ArrayStft final : public Operator {
protected:
    void onActivate() override {
        micCount_ = inputCount();
        producer_ = std::make_shared<const std::string>(nodeId());
        windowers_.clear();
        pending_.clear();
        pending_.resize(static_cast<std::size_t>(micCount_));
        frameSize_ = 0;
        // Without an explicit frame length the rate decides it: wait for the first samples.
        if (params().getInt("frame") > 0) prepare(0.0);
    }

    void process(int port, Item&& item) override {
        SigSeg<float> samples = item.takeSignal<float>();
        if (frameSize_ == 0) prepare(samples.timebase()->rateHz());
        try {
            windowers_[static_cast<std::size_t>(port)].push(std::move(samples), [&](SigSeg<float>&& window) {
                pending_[static_cast<std::size_t>(port)].push(std::move(window));
            });
        } catch (const std::invalid_argument& e) {
            throw OperatorError("in" + std::to_string(port) + ": " + e.what());
        }
        emitReadyFrames();
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        TimeNs promise = inputProgress;
        for (std::size_t m = 0; m < windowers_.size(); ++m) {
            if (!pending_[m].empty()) {
                promise = std::min(promise, rangeOf(pending_[m].front()).startTime());
            } else if (const Timebase* timebase = windowers_[m].timebase()) {
                promise = std::min(promise, timebase->timeOf(windowers_[m].nextWindowStart()));
            }
        }
        return promise;
    }

    void onFinish() override {
        std::size_t unmatched = 0;
        for (const auto& queue : pending_) unmatched = std::max(unmatched, queue.size());
        if (unmatched > 0) warn(std::to_string(unmatched) + " frame(s) did not arrive on every input and were dropped");
    }

private:
    /// Frame length (the parameter, or for 0 the power of two nearest to kAutomaticFrameSeconds at
    /// `rateHz`), hop, window, plan and windowers. [allocates]
    void prepare(double rateHz) {
        frameSize_ = params().getInt("frame");
        if (frameSize_ == 0) {
            const double ideal = std::log2(kAutomaticFrameSeconds * rateHz);
            frameSize_ = std::int64_t{1} << std::clamp(static_cast<int>(std::lround(ideal)), 6, 14);
        }
        if (frameSize_ < 64) throw OperatorError("frame " + std::to_string(frameSize_) + " is below 64 samples (0 = automatic)");
        hop_ = params().getInt("hop");
        if (hop_ == 0) hop_ = frameSize_ / 2;
        if (hop_ < 16) throw OperatorError("hop " + std::to_string(hop_) + " is below 16 samples (0 = half a frame)");
        for (int m = 0; m < micCount_; ++m) windowers_.emplace_back(frameSize_, hop_);
        spectrum_.emplace(frameSize_, WindowShape::Hann, PlanEffort::Estimate);
        // Normalizes the emitted power to the mean square of the windowed samples.
        windowPower_ = 0.0;
        for (float w : spectrum_->window()) windowPower_ += static_cast<double>(w) * w;
    }

    void emitReadyFrames() {
        auto allReady = [&] {
            return std::all_of(pending_.begin(), pending_.end(), [](const auto& queue) { return !queue.empty(); });
        };
        while (allReady()) {
            const SampleRange first = rangeOf(pending_.front().front());
            std::int64_t latestStart = first.start;
            bool identical = true;
            for (const auto& queue : pending_) {
                const SampleRange range = rangeOf(queue.front());
                identical = identical && range == first;
                latestStart = std::max(latestStart, range.start);
            }
            if (!identical) {
                if (!warnedMismatch_) {
                    warn("the inputs' frames differ (samples lost on some inputs only): unmatched frames dropped");
                    warnedMismatch_ = true;
                }
                for (auto& queue : pending_) {
                    if (queue.front().startIndex() < latestStart || queue.front().timebase() != first.timebase) queue.pop();
                }
                continue;
            }
            emitFrame(first);
        }
    }

    void emitFrame(const SampleRange& range) {
        const std::int64_t stride = ArraySpectra::micStride(frameSize_);
        const std::int64_t binCount = frameSize_ / 2 + 1;
        auto bins = SigSeg<std::complex<float>>::allocate(stride * micCount_, 0, nullptr);
        std::complex<float>* out = bins.writable().data();
        double power = 0.0;
        for (int m = 0; m < micCount_; ++m) {
            std::complex<float>* mic = out + m * stride;
            spectrum_->transform(pending_[static_cast<std::size_t>(m)].pop(), mic);
            // Parseval over the half spectrum: bins other than 0 and N/2 stand for their mirror too.
            double binPower = 0.0;
            for (std::int64_t k = 0; k < binCount; ++k) {
                const bool mirrored = k > 0 && 2 * k != frameSize_;
                binPower += (mirrored ? 2.0 : 1.0) * std::norm(std::complex<double>(mic[k]));
            }
            power += binPower / static_cast<double>(frameSize_);
        }
        const double meanPower = power / (windowPower_ * micCount_);
        auto* spectra = new ArraySpectra(std::move(bins), micCount_, frameSize_, hop_, range.timebase->rateHz(), producer_);
        emit(0, Item::custom(spectra, range, meanPower));
    }

    std::int64_t frameSize_ = 1024;
    std::int64_t hop_ = 512;
    int micCount_ = 0;
    std::shared_ptr<const std::string> producer_;  // this node's id, carried by every frame
    std::vector<Windower<float>> windowers_;
    std::vector<RingBuffer<SigSeg<float>>> pending_;  // [mic]: complete windows not yet emitted
    std::optional<WindowedSpectrum> spectrum_;  // Hann window and FFT of one frame
    double windowPower_ = 1.0;
    bool warnedMismatch_ = false;
};

}  // namespace

OperatorDescriptor arrayStftDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spatial.array_stft";
    d.category = "spatial";
    d.summary = "Short-time spectra of every mic of an array: one custom<spatial.array_spectra> item per frame";
    d.documentation =
        "Cuts each mic's samples (in0.., the geometry's order) into frames of 'frame' samples every 'hop' samples, "
        "applies a Hann window and transforms them (FFTW, bins 0 Hz to Nyquist, unnormalized). A frame goes out once "
        "every input has delivered it, as one item over the frame's samples whose value is the mean power per mic "
        "and sample. Frames that do not arrive on every input (samples lost on some inputs only) are dropped with a "
        "warning. The front end of detect.spectral_activity -> spatial.frame_directions -> spatial.source_tracker.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "mic m's samples, any segmentation", false, "channels"}};
    d.outputs = {PortSpec{"spectra", PortType::custom(ArraySpectra::kTypeName),
                          "per frame the spectra of every mic (bins 0 .. frame/2) over the frame's range"}};
    d.params = {
        ParamSpec{"channels", ParamKind::Int, std::int64_t{0}, 0.0, 64.0, "", "number of mic inputs in0.. (0 = the size of the bus feeding them)"},
        ParamSpec{"frame", ParamKind::Int, std::int64_t{0}, 0.0, 16384.0, "samples",
                  "frame length N, at least 64 (bin spacing rate / N); 0 = the power of two nearest to 21 ms (1024 at 44.1 and 48 "
                  "kHz, 512 at 22.05 to 32 kHz, 256 at 16 kHz)"},
        ParamSpec{"hop", ParamKind::Int, std::int64_t{0}, 0.0, 16384.0, "samples",
                  "samples between frame starts, at least 16; 0 = half a frame"},
    };
    d.channelsOut = [](const ParamSet&, const std::vector<ChannelLayout>& inputs, std::size_t) {
        return std::vector<ChannelLayout>{concatenateChannels(inputs)};
    };
    d.create = [] { return std::make_unique<ArrayStft>(); };
    return d;
}

}  // namespace isochron
