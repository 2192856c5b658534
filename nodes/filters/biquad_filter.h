// The operator behind every biquad-cascade filter of the family (Butterworth, Chebyshev I, the
// cookbook equalizers): a design function from parameters to sections, and a BiquadCascade.
#pragma once

#include <functional>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/filters/biquad_section.h"

namespace isochron {

/// Sections for a node's parameters at a sampling rate; throws std::invalid_argument when they do
/// not fit that rate. [any thread] [may allocate]
using CascadeDesigner = std::function<std::vector<filters::BiquadSection>(const ParamSet& params, double rateHz)>;

/// A fresh operator running the cascade `designer` gives (redesigned live, state kept). [setup thread]
std::unique_ptr<Operator> makeBiquadFilter(CascadeDesigner designer);

/// The `response`, `cutoff_hz`, `high_cutoff_hz` and `order` parameters of the classic IIR designs. [setup]
std::vector<ParamSpec> classicIirParameters();

}  // namespace isochron
