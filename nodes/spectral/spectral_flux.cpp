#include "nodes/spectral/spectral_flux.h"

#include <cmath>
#include <string>
#include <vector>

#include "engine/operators/operator.h"

namespace isochron {
namespace {

/// Keeps the previous frame's values and scores each frame against them.
class SpectralFlux final : public Operator {
protected:
    void onActivate() override {
        squared_ = params().getString("norm") == "l2";
        rectify_ = params().getBool("rectify");
        previous_.clear();
    }

    void process(int, Item&& item) override {
        const SampleRange range = item.range();
        const SigSeg<float> values = item.takeSignal<float>();
        const std::size_t count = static_cast<std::size_t>(values.length());
        if (previous_.empty()) {
            previous_.resize(count);  // the first frame allocates
        } else if (previous_.size() != count) {
            throw OperatorError("a frame of " + std::to_string(count) + " values follows one of " + std::to_string(previous_.size()) +
                                ": flux compares frames of one size");
        }
        double flux = 0.0;
        std::size_t k = 0;
        values.forEachSpan([&](std::span<const float> run) {
            for (float value : run) {
                double change = static_cast<double>(value) - previous_[k];
                if (rectify_ && change < 0.0) change = 0.0;
                flux += squared_ ? change * change : std::abs(change);
                previous_[k++] = value;
            }
        });
        if (!started_) {
            started_ = true;
            flux = 0.0;  // nothing to compare the first frame with
        }
        emit(0, Item::scalar(squared_ ? std::sqrt(flux) : flux, range));
    }

private:
    bool squared_ = false;
    bool rectify_ = true;
    bool started_ = false;
    std::vector<float> previous_;
};

}  // namespace

OperatorDescriptor spectralFluxDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.spectral_flux";
    d.category = "spectral";
    d.summary = "Spectral flux: the (rectified) change of each frame's values since the previous frame";
    d.documentation =
        "For frame t with values X_t(k): l1 = sum_k r(X_t(k) - X_{t-1}(k)), l2 = sqrt(sum_k r(X_t(k) - X_{t-1}(k))^2), "
        "where r keeps only increases (rectify, the onset detection function of Dixon 2006) or every change. Feed "
        "magnitudes (spectral.magnitude) or band energies; the score is a scalar over the frame's range. The first "
        "frame has nothing to compare with and scores 0. Frames must keep one length.";
    d.inputs = {PortSpec{"in", PortType::frame(SampleType::Float32), "magnitude spectra or band values, one frame per item"}};
    d.outputs = {PortSpec{"flux", PortType::scalar(), "one score per frame, in the input's unit"}};
    d.params = {
        ParamSpec{"norm", ParamKind::Choice, std::string("l1"), {}, {}, "", "l1: sum of changes; l2: root of the sum of squared changes",
                  {"l1", "l2"}},
        ParamSpec{"rectify", ParamKind::Bool, true, {}, {}, "", "count only increases (onsets), not decreases"},
    };
    d.create = [] { return std::make_unique<SpectralFlux>(); };
    return d;
}

}  // namespace isochron
