#include "nodes/math/clip.h"

#include <algorithm>

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// out = min(max(in, low), high); NaN passes through.
class Clip final : public SampleMapOperator {
protected:
    void onActivate() override { readLimits(); }
    void onParameterChanged(std::string_view) override { readLimits(); }

    void map(std::span<const float> in, float* out) const override {
        const float low = low_;
        const float high = high_;
        for (float v : in) *out++ = v < low ? low : (v > high ? high : v);
    }

private:
    void readLimits() {
        const double low = params().getReal("low");
        const double high = params().getReal("high");
        if (low > high) {
            warn("low " + std::to_string(low) + " is above high " + std::to_string(high) + "; kept the previous limits");
            return;
        }
        low_ = static_cast<float>(low);
        high_ = static_cast<float>(high);
    }

    float low_ = -1.0f;
    float high_ = 1.0f;
};

}  // namespace

OperatorDescriptor clipDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor("math.clip", "Limits each sample to [low, high] (live)",
                                               "out = min(max(in, low), high); a NaN sample stays NaN.");
    d.params = {
        ParamSpec{"low", ParamKind::Real, -1.0, -1e9, 1e9, "", "smallest output value", {}, true},
        ParamSpec{"high", ParamKind::Real, 1.0, -1e9, 1e9, "", "largest output value", {}, true},
    };
    d.deriveParams = [](ParamSet& params) {
        if (params.getReal("low") > params.getReal("high")) throw ParameterError("low", "low is above high");
    };
    d.create = [] { return std::make_unique<Clip>(); };
    return d;
}

}  // namespace isochron
