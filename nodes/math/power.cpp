#include "nodes/math/power.h"

#include <cmath>

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// out = in ^ exponent (std::pow: NaN for a negative sample and a fractional exponent); squares and
/// square roots take their own faster loops.
class Power final : public SampleMapOperator {
protected:
    void onActivate() override { exponent_ = static_cast<float>(params().getReal("exponent")); }
    void onParameterChanged(std::string_view) override { exponent_ = static_cast<float>(params().getReal("exponent")); }

    void map(std::span<const float> in, float* out) const override {
        const float exponent = exponent_;
        if (exponent == 2.0f) {
            for (float v : in) *out++ = v * v;
        } else if (exponent == 0.5f) {
            for (float v : in) *out++ = std::sqrt(v);
        } else {
            for (float v : in) *out++ = std::pow(v, exponent);
        }
    }

private:
    float exponent_ = 2.0f;
};

}  // namespace

OperatorDescriptor powerDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor("math.power", "Each sample raised to a constant power (live)",
                                               "out = in ^ exponent, as C's pow: a negative sample with a fractional exponent gives NaN.");
    d.params = {ParamSpec{"exponent", ParamKind::Real, 2.0, -1e3, 1e3, "", "the power every sample is raised to", {}, true}};
    d.create = [] { return std::make_unique<Power>(); };
    return d;
}

}  // namespace isochron
