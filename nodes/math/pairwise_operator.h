// PairwiseOperator: the base of math operators that combine two f32 signals sample by sample
// (add, subtract, multiply), aligned by sample index; a sample one input never delivers reads as zero.
#pragma once

#include <string>

#include "nodes/channels/aligned_operator.h"

namespace isochron {

/// out[i] = Combine{}(a[i], b[i]) over aligned inputs a and b. [engine thread]
template <class Combine>
class PairwiseOperator final : public AlignedOperator {
protected:
    void combine(std::int64_t from, std::int64_t count) override {
        const float* a = read(0, from, count).data();
        const float* b = read(1, from, count).data();
        auto result = SigSeg<float>::allocate(count, from, timebase());
        float* out = result.writable().data();
        for (std::int64_t i = 0; i < count; ++i) out[i] = Combine{}(a[i], b[i]);
        emit(0, Item::signal(std::move(result)));
    }
};

/// A descriptor for a pairwise operator `typeName` with inputs "a", "b" and output "out". [may allocate]
OperatorDescriptor pairwiseDescriptor(std::string typeName, std::string summary, std::string documentation);

}  // namespace isochron
