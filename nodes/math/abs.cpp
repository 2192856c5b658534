#include "nodes/math/abs.h"

#include <cmath>

#include "nodes/math/sample_map.h"

namespace isochron {
namespace {

/// out = |in|.
class Abs final : public SampleMapOperator {
protected:
    void map(std::span<const float> in, float* out) const override {
        for (float v : in) *out++ = std::fabs(v);
    }
};

}  // namespace

OperatorDescriptor absDescriptor() {
    OperatorDescriptor d = sampleMapDescriptor("math.abs", "Absolute value of each sample", "out = |in|, sample by sample.");
    d.create = [] { return std::make_unique<Abs>(); };
    return d;
}

}  // namespace isochron
