// AlignedOperator: the base of operators that combine several f32 signal inputs sample by sample
// (mix, merge, add, expression). It holds each input until every input has delivered a range, or
// promised (by progress, or by ending) that it has nothing for it, hands that range to combine() once
// with zeros where an input has no samples, and flushes what is left when every input has ended.
// Output segments are cut at every input segment's start and end, so the items out depend on the
// items in, not on the order a scheduler delivered them in. Progress promised on the outputs stops at
// the oldest sample held.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/channels/aligned_inputs.h"

namespace isochron {

/// Operator over aligned f32 signal inputs. [engine thread]
class AlignedOperator : public Operator {
protected:
    /// Emit the outputs for samples [from, from + count) of every input (read them with read()).
    /// [engine thread] [no system allocation in the steady state]
    virtual void combine(std::int64_t from, std::int64_t count) = 0;

    /// Resets the held inputs; an operator that overrides it calls it first. [engine thread] [may allocate]
    void onActivate() override;
    void process(int inputPort, Item&& item) override;
    TimeNs onProgress(TimeNs inputProgress) override;
    void onFinish() override;

    /// Input `input`'s samples [from, from + count), in place when they are contiguous. Valid during combine().
    std::span<const float> read(int input, std::int64_t from, std::int64_t count);
    /// The timebase of the inputs (set once the first sample arrived).
    const Timebase* timebase() const { return inputs_.timebase(); }

private:
    void combineUpTo(std::int64_t end);
    /// Combine what every input has delivered or promised to skip.
    void combineReadable();

    AlignedInputs inputs_;
    std::vector<std::int64_t> promised_;  // per input: the first index its progress does not rule out
    std::vector<std::vector<float>> scratch_;  // per input: gathered samples when a range spans pieces
};

}  // namespace isochron
