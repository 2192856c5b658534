// BiquadCascade: runs a chain of biquads over float samples, keeping its state between calls so
// that the output does not depend on how the input is split.
//
// Transposed direct form II in double precision (float state loses low-frequency poles). Short
// cascades (one or two sections) on CPUs with AVX2+FMA (chosen at run time, like nodes/kernels) take
// samples four at a time through each section as one small matrix product: y[0..3] = H x[0..3] + G1 s1 + G2 s2, H the lower-triangular
// Toeplitz matrix of the section's first four impulse-response samples, G1 and G2 its responses to
// a unit state; the state after the block follows from the last two inputs and outputs. That costs
// a few more multiplications but runs four samples per vector operation and crosses the recursion
// once per block instead of once per sample. Longer cascades run samples through up to four sections
// with the state in registers, so that the sections' recursions overlap in the pipeline (fused
// multiply-adds where the CPU has them; beyond four sections, four at a time over a scratch chunk).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "nodes/filters/biquad_section.h"

namespace isochron::filters {

/// A cascade of biquads with its state. [one thread] [no allocation in process()]
class BiquadCascade {
public:
    /// Use these sections (at least one). The state is kept when the number of sections is
    /// unchanged (a live retune), cleared otherwise. [may allocate]
    void setSections(std::span<const BiquadSection> sections);
    /// Forget the past: the next sample is filtered as if preceded by silence. [no allocation]
    void reset();
    /// Filter `count` samples from `input` into `output` (the same array is allowed). [no allocation]
    void process(const float* input, float* output, std::size_t count);

    const std::vector<BiquadSection>& sections() const { return sections_; }

    /// A section prepared for the four-sample blocks (see the note at the top). [value type]
    struct BlockSection {
        double columns[4][4];        ///< columns[k][i] = h[i - k], 0 above the diagonal
        double stateResponse[2][4];  ///< outputs for a unit s1, a unit s2
        double b1, b2, a1, a2;
    };

private:
    std::vector<BiquadSection> sections_;
    std::vector<BlockSection> blocks_;  // for the block path, else empty
    bool fused_ = false;
    std::vector<double> state_;    // [section][2]
    std::vector<double> scratch_;  // a chunk between groups of four sections
};

}  // namespace isochron::filters
