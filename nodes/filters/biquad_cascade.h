// BiquadCascade: runs a chain of biquads over float samples, keeping its state between calls so
// that the output does not depend on how the input is split.
//
// Transposed direct form II in double precision (float state loses low-frequency poles). Samples
// go through every section in turn while the state stays in registers: up to four sections run in
// one pass, so the sections' recursions overlap in the pipeline instead of running one after the
// other; longer cascades run four sections at a time over chunks of a double scratch buffer. On
// CPUs with FMA the updates use fused multiply-adds (chosen at run time, like nodes/kernels).
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

private:
    std::vector<BiquadSection> sections_;
    std::vector<double> state_;    // [section][2]
    std::vector<double> scratch_;  // a chunk between groups of four sections
};

}  // namespace isochron::filters
