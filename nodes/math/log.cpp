#include "nodes/math/log.h"

#include <cmath>

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// out = log_base(in): NaN for a negative sample, -inf for zero (as std::log).
class Log final : public SampleMapOperator {
protected:
    void onActivate() override {
        const std::string& base = params().getString("base");
        scale_ = base == "10" ? static_cast<float>(1.0 / std::log(10.0)) : base == "2" ? static_cast<float>(1.0 / std::log(2.0)) : 1.0f;
    }

    void map(std::span<const float> in, float* out) const override {
        const float scale = scale_;
        for (float v : in) *out++ = scale * std::log(v);
    }

private:
    float scale_ = 1.0f;  // 1 / ln(base)
};

}  // namespace

OperatorDescriptor logDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor("math.log", "Logarithm of each sample (natural, base 10 or 2)",
                                               "out = log_base(in); a zero sample gives -inf and a negative one NaN, as in C. "
                                               "For levels use math.decibels, which takes |x| and has a floor.");
    d.params = {ParamSpec{"base", ParamKind::Choice, std::string("e"), {}, {}, "", "e (natural), 10 or 2", {"e", "10", "2"}}};
    d.create = [] { return std::make_unique<Log>(); };
    return d;
}

}  // namespace isochron
