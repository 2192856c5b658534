#include "nodes/math/add.h"

#include <functional>

#include "nodes/math/pairwise_operator.h"

namespace isochron {

OperatorDescriptor addDescriptor() {
    OperatorDescriptor d = pairwiseDescriptor("math.add", "Sum of two signals", "out = a + b, sample by sample.");
    d.create = [] { return std::make_unique<PairwiseOperator<std::plus<float>>>(); };
    return d;
}

}  // namespace isochron
