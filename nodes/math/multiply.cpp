#include "nodes/math/multiply.h"

#include <functional>

#include "nodes/math/pairwise_operator.h"

namespace isochron {

OperatorDescriptor multiplyDescriptor() {
    OperatorDescriptor d = pairwiseDescriptor("math.multiply", "Product of two signals (signal x signal; for signal x constant see math.scale)", "out = a * b, sample by sample.");
    d.create = [] { return std::make_unique<PairwiseOperator<std::multiplies<float>>>(); };
    return d;
}

}  // namespace isochron
