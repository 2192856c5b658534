#include "nodes/math/scale.h"

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// out = factor * in + offset.
class Scale final : public SampleMapOperator {
protected:
    void onActivate() override { readParams(); }
    void onParameterChanged(std::string_view) override { readParams(); }

    void map(std::span<const float> in, float* out) const override {
        const float factor = factor_;
        const float offset = offset_;
        for (float v : in) *out++ = factor * v + offset;
    }

private:
    void readParams() {
        factor_ = static_cast<float>(params().getReal("factor"));
        offset_ = static_cast<float>(params().getReal("offset"));
    }

    float factor_ = 1.0f;
    float offset_ = 0.0f;
};

}  // namespace

OperatorDescriptor scaleDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor("math.scale", "Each sample times a constant plus an offset (live)",
                                               "out = factor * in + offset, sample by sample; both may change while running.");
    d.params = {
        ParamSpec{"factor", ParamKind::Real, 1.0, -1e9, 1e9, "", "multiplies every sample", {}, true},
        ParamSpec{"offset", ParamKind::Real, 0.0, -1e9, 1e9, "", "added after the multiplication", {}, true},
    };
    d.create = [] { return std::make_unique<Scale>(); };
    return d;
}

}  // namespace isochron
