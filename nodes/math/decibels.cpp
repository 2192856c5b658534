#include "nodes/math/decibels.h"

#include <algorithm>
#include <cmath>

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// out = max(k log10 |in|, floor_db) with k = 20 (amplitude) or 10 (power).
class Decibels final : public SampleMapOperator {
protected:
    void onActivate() override {
        factor_ = params().getString("quantity") == "power" ? 10.0f : 20.0f;
        floor_ = static_cast<float>(params().getReal("floor_db"));
    }

    void map(std::span<const float> in, float* out) const override {
        // Below this magnitude the level is under the floor: log10 is not called for it.
        const float smallest = std::pow(10.0f, floor_ / factor_);
        for (float v : in) {
            const float magnitude = std::fabs(v);
            *out++ = magnitude > smallest ? factor_ * std::log10(magnitude) : floor_;
        }
    }

private:
    float factor_ = 20.0f;
    float floor_ = -120.0f;
};

}  // namespace

OperatorDescriptor decibelsDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor(
        "math.decibels", "Level of each sample in dB (amplitude or power)",
        "amplitude: 20 log10 |x|; power: 10 log10 |x|; never below floor_db (a zero sample reads floor_db, not -inf).");
    d.params = {
        ParamSpec{"quantity", ParamKind::Choice, std::string("amplitude"), {}, {}, "",
                  "amplitude (20 log10 |x|) or power (10 log10 |x|)", {"amplitude", "power"}},
        ParamSpec{"floor_db", ParamKind::Real, -120.0, -400.0, 0.0, "dB", "the lowest level reported"},
    };
    d.create = [] { return std::make_unique<Decibels>(); };
    return d;
}

}  // namespace isochron
