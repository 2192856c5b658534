// BiquadCascade: runs a chain of biquads over float samples, keeping its state between calls so
// that the output does not depend on how the input is split.
//
// Transposed direct form II in double precision (float state loses low-frequency poles).
//
// A recursion cannot be vectorized along time, and one sample through a section is a chain of two
// dependent multiply-adds, so a plain loop is bound by their latency. On CPUs with AVX2+FMA (chosen
// at run time, like nodes/kernels) cascades therefore take chunks of 4 x 256 samples, four sections
// at a time (double between them), and run the chunk's four quarters side by side, one per vector lane: the first
// quarter from the true state, the others from silence. By linearity, each later quarter's true
// output is what it gave from silence plus the cascade's response to the state it really started
// in; those states follow quarter by quarter from the end states and the cascade's 256-sample state
// transition, and the responses to each unit state are tabulated when the sections are set. Shorter
// input, the rest of a chunk and other CPUs run sample by sample with the state in registers (up to four sections per pass, so their recursions overlap in the pipeline; beyond four,
// four at a time over a scratch chunk).
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


    /// What the lane path needs to correct the later quarters (see the note at the top). [value type]
    struct LanePlan {
        std::size_t laneLength = 0;         ///< samples per quarter; 0 = the lane path is off
        std::vector<double> stateResponse;  ///< [state m][n]: cascade output n from unit state m, no input
        std::vector<double> transition;     ///< [row][m]: state after laneLength samples from unit state m
    };

private:
    std::vector<BiquadSection> sections_;
    std::vector<LanePlan> lanePlans_;  // one per group of four sections (empty without AVX2+FMA)
    std::vector<double> lanes_;        // a chunk's outputs from the lanes, [n][quarter]
    std::vector<double> between_;      // a chunk between groups of sections, in double
    bool fused_ = false;
    std::vector<double> state_;    // [section][2]
    std::vector<double> scratch_;  // a chunk between groups of four sections
};

}  // namespace isochron::filters
