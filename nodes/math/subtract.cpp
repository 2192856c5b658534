#include "nodes/math/subtract.h"

#include <functional>

#include "nodes/math/pairwise_operator.h"

namespace isochron {

OperatorDescriptor subtractDescriptor() {
    OperatorDescriptor d = pairwiseDescriptor("math.subtract", "Difference of two signals (a - b)", "out = a - b, sample by sample.");
    d.create = [] { return std::make_unique<PairwiseOperator<std::minus<float>>>(); };
    return d;
}

}  // namespace isochron
