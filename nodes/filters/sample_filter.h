// SampleFilter: the body every operator of the filters family shares. One signal<f32> in, one out;
// output sample n is computed from input samples up to n (causal) and keeps the input's index and
// timebase, so a filtered stream lines up with the original and progress passes through unchanged.
//
// The design depends on the sampling rate, which is known only when samples arrive: it is made at
// the first segment, again when the timebase changes (with a cleared state), and on a live
// parameter change (keeping the state when the filter's size allows, so a sweep does not click).
// A gap in the indices (lost samples) clears the state rather than filtering across the hole.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/operators/operator.h"

namespace isochron {

/// Base of the filters family's operators; subclasses design and run their filter. [engine thread]
class SampleFilter : public Operator {
protected:
    void process(int inputPort, Item&& item) final;
    void onParameterChanged(std::string_view name) final;

    /// (Re)design from params() for `rateHz`, keeping the state when the filter's size is unchanged
    /// (a live change; a new timebase is followed by clearState()). Throw std::invalid_argument for
    /// parameters that do not fit this rate. [may allocate]
    virtual void design(double rateHz) = 0;
    /// Forget the past (silence before the next sample). [no allocation]
    virtual void clearState() = 0;
    /// Filter the next `count` samples of the stream into `output` (distinct arrays). [no allocation]
    virtual void filter(const float* input, float* output, std::size_t count) = 0;

private:
    const Timebase* timebase_ = nullptr;
    std::int64_t nextIndex_ = 0;
    bool warnedGap_ = false;
};

/// The ports every filter has: `in` (signal<f32>) and `out` (the filtered signal). [setup]
std::vector<PortSpec> sampleFilterInputs();
std::vector<PortSpec> sampleFilterOutputs();

}  // namespace isochron
