#include "nodes/spectral/fft.h"

#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/spectral/fft_plan_cache.h"
#include "nodes/spectral/window_functions.h"

namespace isochron {
namespace {

/// Windows, zero-pads and transforms each input item; the spectrum describes the item's range.
class Fft final : public Operator {
protected:
    void onActivate() override {
        fixedSize_ = params().getInt("size");
        effort_ = params().getString("plan_effort") == "measure" ? PlanEffort::Measure : PlanEffort::Estimate;
        readWindowShape();
        if (fixedSize_ > 0) prepareTransform(fixedSize_);
    }

    void onParameterChanged(std::string_view) override { readWindowShape(); }

    void process(int, Item&& item) override {
        const SampleRange covered = item.range();
        const SigSeg<float> samples = item.takeSignal<float>();
        const std::int64_t length = samples.length();
        if (fixedSize_ > 0 && length > fixedSize_) {
            throw OperatorError("window of " + std::to_string(length) + " samples is longer than the FFT size " +
                                std::to_string(fixedSize_) + " (raise 'size', or set it to 0 to follow each window)");
        }
        const std::int64_t size = fixedSize_ > 0 ? fixedSize_ : length;
        if (size == 0) throw OperatorError("an empty window has no spectrum (set 'size' to zero-pad it)");
        if (!plan_ || plan_->size() != size) prepareTransform(size);
        if (std::ssize(windowCoefficients_) != length && windowShape_ != WindowShape::None) {
            windowCoefficients_.resize(static_cast<std::size_t>(length));
            fillWindow(windowShape_, windowCoefficients_);
        }

        float* input = scratch_.writable().data();
        float* next = input;
        const float* coefficient = windowCoefficients_.data();
        samples.forEachSpan([&](std::span<const float> run) {
            if (windowShape_ == WindowShape::None) {
                next = std::copy(run.begin(), run.end(), next);
                return;
            }
            for (float sample : run) *next++ = sample * *coefficient++;
        });
        std::fill(next, input + size, 0.0f);

        auto bins = SigSeg<std::complex<float>>::allocate(plan_->binCount(), 0, nullptr);
        plan_->execute(input, bins.writable().data());
        emit(0, Item::frame(std::move(bins), covered));
    }

private:
    void readWindowShape() {
        windowShape_ = windowShapeFromName(params().getString("window")).value_or(WindowShape::None);
        windowCoefficients_.clear();  // recomputed for the next window's length
    }

    /// Plan (or fetch the shared plan) for `size` and make the scratch input hold it. [may allocate]
    void prepareTransform(std::int64_t size) {
        plan_ = &FftPlanCache::instance().realForward(size, effort_);
        // Pool storage is 64-byte aligned, as the plan's arrays were.
        if (scratch_.length() < size) scratch_ = SigSeg<float>::allocate(size, 0, nullptr);
    }

    std::int64_t fixedSize_ = 0;  // 0: each window's own length
    PlanEffort effort_ = PlanEffort::Estimate;
    WindowShape windowShape_ = WindowShape::None;
    std::vector<float> windowCoefficients_;  // for the last window length seen
    const RealForwardPlan* plan_ = nullptr;
    SigSeg<float> scratch_;  // the windowed, zero-padded input of one transform
};

/// The length of the windows `feeder` sends, when its parameters state it: a source's "block"
/// (samples per segment) or segments.rewindow's "window"; nullopt when only the run can tell.
std::optional<std::pair<std::int64_t, std::string>> statedWindowLength(const UpstreamNode& feeder) {
    const char* param = nullptr;
    if (feeder.descriptor->typeName == "segments.rewindow") param = "window";
    else if (feeder.descriptor->inputs.empty()) param = "block";
    else return std::nullopt;
    const auto spec = std::find_if(feeder.descriptor->params.begin(), feeder.descriptor->params.end(),
                                   [&](const ParamSpec& p) { return p.name == param && p.kind == ParamKind::Int; });
    if (spec == feeder.descriptor->params.end()) return std::nullopt;
    return std::pair{feeder.params->getInt(param), std::string(param)};
}

/// At validation: a nonzero 'size' shorter than the windows the feeding node states would stop the
/// node on its first window; --check says so instead.
void refuseSizeBelowStatedWindows(const ParamSet& params, const std::vector<UpstreamNode>& upstream) {
    const std::int64_t size = params.getInt("size");
    if (size == 0 || upstream.empty()) return;  // upstream.front() feeds the one input
    const auto window = statedWindowLength(upstream.front());
    if (!window || window->first <= size) return;
    throw ParameterError("size", std::to_string(size) + " is shorter than the windows of " + std::to_string(window->first) + " samples node '" +
                                     *upstream.front().id + "' sends (its parameter '" + window->second + "'): raise 'size' to at least " +
                                     std::to_string(window->first) + ", or set it to 0 to follow each window");
}

}  // namespace

OperatorDescriptor fftDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.fft";
    d.category = "spectral";
    d.summary = "Spectrum of each window: real-to-complex FFT, N/2+1 bins";
    d.documentation =
        "Each input item is one window of L samples. It is multiplied by the chosen window function "
        "(periodic form, over the L samples), zero-padded to N = 'size' samples (N = L when 'size' is 0) "
        "and transformed: X_k = sum_n x_n w_n e^(-2 pi i k n / N), k = 0 .. N/2, unnormalized (FFTW's "
        "convention). Bin k is at k * rate / N Hz. The output frame describes the input item's range. "
        "A window longer than a nonzero 'size' stops the node with an error; validation (--check) refuses such a "
        "'size' already when the feeding node states its window length (a source's 'block', segments.rewindow's "
        "'window'). Plans are shared by every "
        "node of the same size and effort; with 'size' 0 they are made on the first window of each new "
        "length (slow with plan_effort measure).";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "windows, one per item"}};
    d.outputs = {PortSpec{"spectrum", PortType::frame(SampleType::ComplexFloat32), "N/2+1 complex bins per window"}};
    d.params = {
        ParamSpec{"size", ParamKind::Int, std::int64_t{0}, 0.0, 16777216.0, "samples",
                  "FFT length N: shorter windows are zero-padded, longer ones refused; 0 = each window's length"},
        ParamSpec{"window", ParamKind::Choice, std::string("none"), {}, {}, "",
                  "taper applied to the window's samples before the transform", windowShapeNames(), true},
        ParamSpec{"plan_effort", ParamKind::Choice, std::string("estimate"), {}, {}, "",
                  "FFTW planning: estimate (instant) or measure (slower start, faster transforms)",
                  {"estimate", "measure"}},
    };
    d.checkUpstream = refuseSizeBelowStatedWindows;
    d.create = [] { return std::make_unique<Fft>(); };
    return d;
}

}  // namespace isochron
