// SampleMapOperator: the base of math operators that map each sample of one f32 signal to one
// output sample over the same range (abs, decibels, power, clip, scale, ...). The map runs over whole
// contiguous runs, so the compiler can vectorise it.
#pragma once

#include <span>

#include "engine/operators/operator.h"

namespace isochron {

/// Operator `out[i] = f(in[i])` over signal<f32>. [engine thread]
class SampleMapOperator : public Operator {
protected:
    /// Map `in` to `out` (as long as `in`). [engine thread] [no allocation]
    virtual void map(std::span<const float> in, float* out) const = 0;

    void process(int, Item&& item) override {
        const auto in = item.takeSignal<float>();
        auto mapped = SigSeg<float>::allocate(in.length(), in.startIndex(), in.timebase());
        float* out = mapped.writable().data();
        in.forEachSpan([&](std::span<const float> run) {
            map(run, out);
            out += run.size();
        });
        emit(0, Item::signal(std::move(mapped)));
    }
};

/// A descriptor for a sample map `typeName` with one signal<f32> input "in" and output "out". [may allocate]
OperatorDescriptor sampleMapDescriptor(std::string typeName, std::string summary, std::string documentation);

}  // namespace isochron
