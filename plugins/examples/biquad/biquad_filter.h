// The operator "biquad.filter": one second-order IIR section over a float signal.
#pragma once

#include <isochron/plugin.h>

namespace biquad {

/// Descriptor of biquad.filter: signal<f32> in, the filtered signal<f32> out (same sample indices);
/// parameters response, frequency_hz and q (the last two live). [setup thread] [may allocate]
isochron::OperatorDescriptor filterDescriptor();

}  // namespace biquad
